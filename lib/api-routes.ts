/** Routes of the REST API, in whichever stack holds them (the parent's operations and docs, the Mail nested stack's unsubscribe link). */
import { AuthorizationType, AwsIntegration, type IResource } from 'aws-cdk-lib/aws-apigateway';
import type { ServiceFunction } from './service-function';

/** The resource at `path` under `root`, made where missing. */
export function resourceAt(root: IResource, path: string): IResource {
  let resource = root;
  for (const part of path.split('/')) {
    resource = resource.getResource(part) ?? resource.addResource(part);
  }
  return resource;
}

/**
 * One method per route, ANY, at `path` under `root` (the API's, or an imported API's in a
 * nested stack: lib/mail.ts): the function answers a method it does not serve with the API's
 * own 405 (functions/api/adapter.ts), as the local server does, and CORS preflights never
 * reach it (the distribution's viewer-request function answers them). The function's invoke
 * permission is beside it, in its nested stack (OperationFunctions, lib/mail.ts): a
 * LambdaIntegration would add one in the API's stack for every function.
 */
export function addProxyRoute(root: IResource, path: string, fn: ServiceFunction): void {
  const integration = new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${fn.function.functionArn}/invocations` });
  resourceAt(root, path).addMethod('ANY', integration, { authorizationType: AuthorizationType.NONE });
}
