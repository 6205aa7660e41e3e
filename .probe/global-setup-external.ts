import globalSetup from '../test/support/global-setup';
export default async function setup(): Promise<void> {
  if (process.env.PROBE_ENDPOINT) process.env.DYNAMODB_ENDPOINT = process.env.PROBE_ENDPOINT;
  else await globalSetup();
  if (process.env.PROBE_RUN_DIR) process.env.TEST_RUN_DIR = process.env.PROBE_RUN_DIR;
}
