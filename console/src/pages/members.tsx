/**
 * The account's members (admins): the account's name (owners rename it), who they are,
 * their roles and mail settings (what they get, where, and a bounce or complaint that
 * stopped it; a card per member on a phone), invitations by email with a
 * role (the link to send is shown once, to copy), the pending invitations (who made each;
 * withdraw), role changes and removal, whose dialog says how many keys the removal also
 * revokes. The API says who may do what (only owners hand out or take away admin and
 * owner, and withdraw owner invitations).
 */
import { useId, useState, type FormEvent } from 'react';
import type { Invitation, Member, PendingInvitation, Role } from '@feedback-service/client';
import { ActorName } from '../components/actor';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { Page } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { ChangeError, ErrorMessage, errorMessage, fieldErrors, Loading } from '../components/states';
import { useInvitations, useInviteMember, useMembers, useRemoveMember, useRenameAccount, useSetMemberRole, useWithdrawInvitation } from '../data/members';
import { formatDateTime } from '../lib/format';
import { preferencesLine, suppressionWords } from '../lib/notification-words';
import { useSession } from '../session';

const ROLES: { value: Role; label: string }[] = [
  { value: 'viewer', label: 'Viewer: reads statistics and responses' },
  { value: 'admin', label: 'Admin: also manages projects, keys, webhooks and viewers' },
  { value: 'owner', label: 'Owner: also manages admins and owners' },
];

function InviteDialog(props: { open: boolean; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const ids = { email: useId(), emailError: useId(), role: useId(), roleError: useId() };
  const invite = useInviteMember();
  // The API's refusal of a field is shown at that field; anything else above the buttons.
  const fields = fieldErrors(invite.error);
  const placed = fields.email !== undefined || fields.role !== undefined;
  const [sent, setSent] = useState<Invitation | undefined>();
  const close = () => {
    invite.reset();
    setSent(undefined);
    setEmail('');
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email: email.trim(), role }, { onSuccess: setSent });
  };
  return (
    <Dialog open={props.open} title={sent ? 'Invitation link' : 'Invite a member'} onClose={close}>
      {sent ? (
        <SecretOnce
          explanation={`Send this link to ${sent.email} only: whoever signs in through it joins as ${sent.role}. It works once, until ${new Date(sent.expiresAt).toLocaleString()}, and is shown only now.`}
          label="Invitation link"
          what="the invitation link"
          testId="invitation-link"
          secret={sent.url}
          onDone={close}
        />
      ) : (
        <form onSubmit={submit} className="form">
          <label htmlFor={ids.email}>Email</label>
          <input
            id={ids.email}
            type="email"
            required
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (fields.email) invite.reset();
            }}
            maxLength={320}
            aria-invalid={fields.email ? true : undefined}
            aria-describedby={fields.email ? ids.emailError : undefined}
          />
          {fields.email && (
            <p id={ids.emailError} className="error field-error" role="alert">
              {fields.email}
            </p>
          )}
          <label htmlFor={ids.role}>Role</label>
          <select
            id={ids.role}
            value={role}
            onChange={(event) => {
              setRole(event.target.value as Role);
              if (fields.role) invite.reset();
            }}
            aria-invalid={fields.role ? true : undefined}
            aria-describedby={fields.role ? ids.roleError : undefined}
          >
            {ROLES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {fields.role && (
            <p id={ids.roleError} className="error field-error" role="alert">
              {fields.role}
            </p>
          )}
          <FormActions
            error={placed ? undefined : invite.error}
            submitLabel="Create invitation"
            disabled={invite.isPending || !email.trim()}
            onCancel={close}
          />
        </form>
      )}
    </Dialog>
  );
}

function RoleSelect(props: { member: Member; onChange: (role: Role) => void; disabled: boolean }) {
  const who = props.member.name ?? props.member.email ?? props.member.subject;
  return (
    <select aria-label={`Role of ${who}`} value={props.member.role} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value as Role)}>
      {ROLES.map((option) => (
        <option key={option.value} value={option.value}>
          {option.value}
        </option>
      ))}
    </select>
  );
}

/** The pending invitations, with who made each, and Withdraw. */
function PendingInvitations() {
  const invitations = useInvitations();
  const [withdrawing, setWithdrawing] = useState<PendingInvitation | undefined>();
  const withdraw = useWithdrawInvitation(() => setWithdrawing(undefined));
  const columns: Column<PendingInvitation>[] = [
    { header: 'Email', cell: (invitation) => invitation.email },
    { header: 'Role', cell: (invitation) => invitation.role },
    { header: 'Invited by', cell: (invitation) => <ActorName actor={invitation.invitedBy} /> },
    { header: 'Expires', cell: (invitation) => formatDateTime(invitation.expiresAt) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (invitation) => (
        <button
          type="button"
          className="danger small"
          onClick={() => setWithdrawing(invitation)}
          aria-label={`Withdraw the invitation for ${invitation.email}`}
        >
          Withdraw
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="pending-invitations">
      <h2 id="pending-invitations">Pending invitations</h2>
      {invitations.isPending ? (
        <Loading what="invitations" />
      ) : invitations.error ? (
        <ErrorMessage error={invitations.error} retry={() => void invitations.refetch()} />
      ) : invitations.data.items.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <ListTable
          caption="Pending invitations"
          columns={columns}
          rows={invitations.data.items}
          rowKey={(invitation) => invitation.id}
          rowData={(invitation) => ({ 'data-invitation': invitation.id })}
        />
      )}
      <ConfirmDialog
        open={withdrawing !== undefined}
        title="Withdraw this invitation?"
        confirmLabel="Withdraw invitation"
        danger
        busy={withdraw.isPending}
        error={withdraw.error}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing.id)}
        onClose={() => {
          withdraw.reset();
          setWithdrawing(undefined);
        }}
      >
        <p>The link sent to {withdrawing?.email} stops working at once.</p>
      </ConfirmDialog>
    </section>
  );
}

/** A member's mail: what they get, where it goes, and why it stopped (a bounce, a complaint). */
function MemberMail(props: { member: Member }) {
  const { mail, notifications } = props.member;
  return (
    <div className="member-mail" data-testid="member-mail">
      {notifications && <span>{preferencesLine(notifications)}</span>}
      <span className="muted small break">{mail?.address ? `to ${mail.address}` : 'no verified address: no mail'}</span>
      {mail?.suppressed && (
        <span className="note small" data-testid="member-suppressed">
          {suppressionWords(mail.suppressed)}
        </span>
      )}
    </div>
  );
}

/** What removing a member also does to the keys they made (the API's count: theirs, and keys those keys created). */
function revokesKeysNote(member: Member | undefined): string | undefined {
  const keys = member?.keys ?? 0;
  if (keys === 0) return undefined;
  return `This also revokes ${keys} API key${keys === 1 ? '' : 's'} they created.`;
}

/** The account's name as its people see it; an owner may change it. */
function AccountName() {
  const { me } = useSession();
  const [draft, setDraft] = useState<string | undefined>();
  const rename = useRenameAccount();
  const inputId = useId();
  const errorId = useId();
  const name = me?.accountName ?? '';
  if (me?.role !== 'owner') {
    return (
      <p>
        Account: <strong data-testid="account-name">{name}</strong> <span className="muted">(its owners may rename it)</span>
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft === undefined) return;
    rename.mutate(draft.trim(), { onSuccess: () => setDraft(undefined) });
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <label htmlFor={inputId}>Account name</label>
      <input
        id={inputId}
        value={draft ?? name}
        maxLength={100}
        required
        onChange={(event) => {
          setDraft(event.target.value);
          rename.reset();
        }}
        aria-invalid={rename.error ? true : undefined}
        aria-describedby={rename.error ? errorId : undefined}
      />
      <button type="submit" disabled={draft === undefined || !draft.trim() || draft.trim() === name || rename.isPending}>
        Rename
      </button>
      {rename.error && (
        <p id={errorId} className="error field-error" role="alert">
          {errorMessage(rename.error)}
        </p>
      )}
    </form>
  );
}

export default function MembersPage() {
  const { me } = useSession();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | undefined>();
  const members = useMembers();
  const setRole = useSetMemberRole();
  const remove = useRemoveMember(() => setRemoving(undefined));
  const nameOf = (member: Member) => member.name ?? member.email ?? member.subject;
  const columns: Column<Member>[] = [
    { header: 'Name', cell: (member) => `${member.name ?? member.subject}${me?.person?.memberId === member.id ? ' (you)' : ''}` },
    { header: 'Email', cell: (member) => member.email ?? '—' },
    { header: 'Mail', cell: (member) => <MemberMail member={member} /> },
    {
      header: 'Role',
      cell: (member) => <RoleSelect member={member} disabled={setRole.isPending} onChange={(role) => setRole.mutate({ id: member.id, role })} />,
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (member) => (
        <button type="button" className="danger small" onClick={() => setRemoving(member)}>
          Remove<span className="visually-hidden"> {nameOf(member)}</span>
        </button>
      ),
    },
  ];
  return (
    <Page
      title="Members"
      subtitle="The people who sign in to this account, and their roles."
      actions={
        <button type="button" className="primary" onClick={() => setInviting(true)}>
          Invite a member
        </button>
      }
    >
      <AccountName />
      <ChangeError error={setRole.error} />
      {members.isPending ? (
        <Loading what="members" />
      ) : members.error ? (
        <ErrorMessage error={members.error} retry={() => void members.refetch()} />
      ) : (
        <ListTable
          caption="Members"
          columns={columns}
          rows={members.data.items}
          rowKey={(member) => member.id}
          rowData={(member) => ({ 'data-member': member.id })}
          empty={<p>No members yet: invite someone.</p>}
        />
      )}
      <PendingInvitations />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        open={removing !== undefined}
        title="Remove this member?"
        confirmLabel="Remove member"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.id)}
        onClose={() => {
          remove.reset();
          setRemoving(undefined);
        }}
      >
        <p>
          {removing?.name ?? removing?.email} loses access from their next request, and their pending invitations are withdrawn. They can join again only
          through a new invitation.
        </p>
        {revokesKeysNote(removing) && <p data-testid="revokes-keys">{revokesKeysNote(removing)}</p>}
      </ConfirmDialog>
    </Page>
  );
}
