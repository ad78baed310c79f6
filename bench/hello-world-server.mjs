// The benchmark's ceiling (DESIGN §9, stack.md §3): a bare Fastify 5 `POST /v1/detect` that parses
// the JSON body and answers a small JSON object, with nothing else (no logger, no schema, no auth).
// Plain JavaScript so it runs under `node` without a TypeScript loader.
//
// Environment: PORT (required), HOST (default 127.0.0.1). Stops on SIGTERM/SIGINT.
import Fastify from 'fastify';

const app = Fastify({ logger: false });

app.post('/v1/detect', async (request) => ({
  url: request.body?.url,
  verdict: 'safe',
  score: 0,
}));

const shutdown = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
