/**
 * One Lambda execution environment for the deploy rehearsal (test/support/local-lambda.ts):
 * started with the function's code directory as working directory and exactly the
 * environment Lambda would give it, it loads the handler the way the Node.js runtime does
 * (`<module>.<export>` relative to the task root), reports the outcome of that init
 * phase, then runs each invocation it is sent over IPC and reports the answer or error.
 * Plain CommonJS so that it runs in a bare `node` with nothing compiled first.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const [taskRoot, handlerSpec, clockOffset] = process.argv.slice(2);

// A clock running ahead (to play a later day): every `new Date()` and `Date.now()` of the code.
const offsetMs = Number(clockOffset || 0);
if (offsetMs !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + offsetMs;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  });
}

function serializeError(error) {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: 'NonError', message: String(error) };
}

async function loadHandler() {
  const dot = handlerSpec.lastIndexOf('.');
  if (dot <= 0) throw new Error(`Bad handler ${handlerSpec}: expected <module>.<export>`);
  const modulePath = path.resolve(taskRoot, handlerSpec.slice(0, dot));
  const exportName = handlerSpec.slice(dot + 1);
  const file = ['.js', '.mjs', '.cjs'].map((extension) => modulePath + extension).find((candidate) => fs.existsSync(candidate));
  if (!file) throw new Error(`Runtime.ImportModuleError: no ${handlerSpec.slice(0, dot)}.js/.mjs/.cjs in ${taskRoot}`);
  const loaded = file.endsWith('.mjs') ? await import(pathToFileURL(file).href) : require(file);
  const handler = loaded[exportName];
  if (typeof handler !== 'function') throw new Error(`Runtime.HandlerNotFound: ${file} does not export ${exportName}()`);
  return handler;
}

function context(message) {
  const deadline = Date.now() + message.timeoutMs;
  const name = process.env.AWS_LAMBDA_FUNCTION_NAME;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${name}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: message.requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A handler may return a promise or call back (the runtime's two conventions). */
function run(handler, event, lambdaContext) {
  return new Promise((resolve, reject) => {
    const callback = (error, value) => (error ? reject(error) : resolve(value));
    try {
      const answer = handler(event, lambdaContext, callback);
      if (answer && typeof answer.then === 'function') answer.then(resolve, reject);
    } catch (error) {
      reject(error);
    }
  });
}

// The execution environment ends with the rehearsal that started it.
process.on('disconnect', () => process.exit(0));
process.on('uncaughtException', (error) => process.send({ type: 'crash', error: serializeError(error) }));
process.on('unhandledRejection', (error) => process.send({ type: 'crash', error: serializeError(error) }));

loadHandler().then(
  (handler) => {
    process.on('message', async (message) => {
      if (message.type !== 'invoke') return;
      try {
        const value = await run(handler, message.event, context(message));
        // What Lambda hands back is the JSON serialization of the answer.
        process.send({ type: 'result', id: message.id, ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) });
      } catch (error) {
        process.send({ type: 'result', id: message.id, ok: false, error: serializeError(error) });
      }
    });
    process.send({ type: 'ready' });
  },
  (error) => {
    process.send({ type: 'init-error', error: serializeError(error) }, () => process.exit(1));
  },
);
