/**
 * A loopback (127.0.0.1, ephemeral port) server speaking the OpenAI chat-completions protocol
 * for tests of the LLM judge: `POST /v1/chat/completions` with a JSON body. Each request is
 * recorded (headers and parsed body) and answered from the test's script: a verdict object
 * wrapped in a proper `chat.completion` envelope, any message content (refusal, finish reason),
 * a raw status and body, a delayed answer, or no answer at all until the server closes.
 *
 * Like the real API it answers 400 with an OpenAI-style error object (`{error: {message, type,
 * param, code}}`) when the body is not JSON or lacks `model` or `messages`, and 404 for other
 * paths. Reached through the SSRF-safe client with a resolve override mapping a test host name
 * (`llm.test.example:<port>`) to 127.0.0.1.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when it did not parse. */
  body: unknown;
}

/** How to answer one request. */
export type ChatAnswer =
  /** A completion whose content is `JSON.stringify(verdict)`. */
  | { kind: 'verdict'; verdict: unknown }
  /** A completion with this message content, refusal and finish reason (defaults: null, 'stop'). */
  | { kind: 'message'; content: string | null; refusal?: string | null; finishReason?: string }
  /** Exactly this status and body (`content-type: application/json` unless headers say else). */
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> }
  /** Never answer; the connection is closed when the server closes. */
  | { kind: 'hang' }
  /** Answer `then` after `ms` milliseconds. */
  | { kind: 'delay'; ms: number; then: ChatAnswer };

export type ChatScript = (request: ChatRequest, index: number) => ChatAnswer;

export interface ChatCompletionsServer {
  port: number;
  /** Every request received, in order. */
  readonly requests: readonly ChatRequest[];
  close: () => Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Start the server; `script` answers well-formed requests to `/v1/chat/completions`. */
export async function startChatCompletionsServer(
  script: ChatScript,
): Promise<ChatCompletionsServer> {
  const requests: ChatRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const request: ChatRequest = { method: req.method ?? '', path, headers: req.headers, body };
      requests.push(request);
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        sendError(res, 404, `Unknown request URL: ${req.method ?? ''} ${path}.`, null);
        return;
      }
      const problem = requestProblem(body);
      if (problem !== null) {
        sendError(res, 400, problem.message, problem.param);
        return;
      }
      const model = (body as { model: string }).model;
      answer(res, script(request, completions++), model);
    });
  });

  function answer(res: ServerResponse, scripted: ChatAnswer, model: string): void {
    switch (scripted.kind) {
      case 'hang':
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) answer(res, scripted.then, model);
        }, scripted.ms);
        timers.add(timer);
        return;
      }
      case 'raw':
        res
          .writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers })
          .end(scripted.body);
        return;
      case 'verdict':
        sendJson(res, 200, completion(model, JSON.stringify(scripted.verdict), null, 'stop'));
        return;
      case 'message':
        sendJson(
          res,
          200,
          completion(
            model,
            scripted.content,
            scripted.refusal ?? null,
            scripted.finishReason ?? 'stop',
          ),
        );
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The `chat.completion` object of the API reference. */
function completion(
  model: string,
  content: string | null,
  refusal: string | null,
  finishReason: string,
): unknown {
  return {
    id: `chatcmpl-test${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
  };
}

/** What the API would reject in a request body, as its error `message` and `param`. */
function requestProblem(body: unknown): { message: string; param: string | null } | null {
  if (typeof body !== 'object' || body === null) {
    return { message: 'We could not parse the JSON body of your request.', param: null };
  }
  if (!('model' in body) || typeof body.model !== 'string' || body.model === '') {
    return { message: 'you must provide a model parameter', param: 'model' };
  }
  if (!('messages' in body) || !Array.isArray(body.messages) || body.messages.length === 0) {
    return { message: "Missing required parameter: 'messages'.", param: 'messages' };
  }
  return null;
}

function sendError(res: ServerResponse, status: number, message: string, param: string | null) {
  sendJson(res, status, {
    error: { message, type: 'invalid_request_error', param, code: null },
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
