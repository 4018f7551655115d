import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The SDK surface: many small requests a second under load, each unremarkable when it succeeds. */
const SDK_PATH = /^\/+(api\/+(sdk|js)|ofrep)\//i;
const SLOW_MS = 1000;

/**
 * Fastify's per-request log lines, but on the SDK path a request that succeeds quickly is logged at
 * debug only: two info lines per SDK request cost more than the request itself. Errors (5xx), refusals
 * (4xx) and slow requests are still logged, each in one line that names the request.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (!SDK_PATH.test(request.url)) return super.incomingRequest(request, reply, metadata);
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (!SDK_PATH.test(request.url)) return super.requestCompleted(error, request, reply, metadata);
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    // An event stream stays open by design: its length is not slowness.
    const streaming = String(request.headers.accept ?? '').includes('text/event-stream');
    if (error || reply.statusCode >= 500) reply.log.error({ ...line, err: error }, 'request failed');
    else if (reply.elapsedTime > SLOW_MS && !streaming) reply.log.warn(line, 'slow request');
    else if (reply.statusCode >= 400) reply.log.info(line, 'request refused');
    else reply.log.debug(line, 'request completed');
  }
}
