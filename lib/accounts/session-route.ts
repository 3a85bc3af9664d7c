import { getSessionUser } from './session';
import { ApiError, type ErrorCode } from '@/lib/platform/errors';
import { errorResponse, isSameOriginPost, withApiRoute, type ApiContext } from '@/lib/platform/http';

/** Session-authenticated JSON routes: the account from the cookie, state changes only from our own pages, one error body. */
export function withSessionRoute<P = Record<string, string>>(handler: (request: Request, context: ApiContext<P> & { userId: string }) => Promise<Response>) {
  return withApiRoute<P>(async (request, context) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && !isSameOriginPost(request)) {
      throw new ApiError('forbidden', 'This request must come from the publisher console.');
    }
    const user = await getSessionUser();
    if (!user) throw new ApiError('unauthorized', 'Sign in to use the publisher console.');
    return handler(request, { ...context, userId: user.id });
  });
}

export function denialResponse(denial: { code: ErrorCode; message: string }, requestId: string): Response {
  return errorResponse(denial.code, denial.message, requestId);
}
