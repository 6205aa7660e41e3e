import { randomBytes } from 'node:crypto';

/**
 * Runs before each test file's modules load: a table of the file's own, a DynamoDB Local
 * database of the file's own, and quiet logs.
 *
 * DynamoDB Local keeps one database per access key id (and region), and every write to a
 * table with a stream costs time in proportion to all the stream records of its database,
 * those of deleted tables included (they are kept 24 hours, as on AWS). In one shared
 * database, each file would slow down every file after it (a transaction of 10 updates:
 * ~15 ms on a fresh database, ~240 ms after 15 000 stream records). So each file signs its
 * requests with a key id of its own (letters and digits only, as DynamoDB Local requires),
 * and the store client, the stream readers and the CLIs the tests spawn all take it from
 * the environment.
 */
const id = randomBytes(6).toString('hex');
process.env.TABLE_NAME = `test_${id}`;
process.env.AWS_ACCESS_KEY_ID = `test${id}`;
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'SILENT';
