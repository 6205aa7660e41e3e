import { Logger } from '@aws-lambda-powertools/logger';

/** One logger for Lambda and the local server, so both print the same structured lines. */
export const logger = new Logger({ serviceName: 'feedback' });
