import { randomBytes } from 'node:crypto';

/** Runs before each test file's modules load: a table of the file's own, and quiet logs. */
process.env.TABLE_NAME = `test_${randomBytes(6).toString('hex')}`;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'SILENT';
