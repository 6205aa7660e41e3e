import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
const c = new DynamoDBClient({});
c.send(new ListTablesCommand({}));
