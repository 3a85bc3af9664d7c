import NextAuth from 'next-auth';
import { getAuthOptions, providerRefusalRedirect } from '@/lib/accounts';

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth v4's App Router handler: it detects the route context by its `params` and answers with a Response.
async function handler(request: Request, context: Context): Promise<Response> {
  const refused = request.method === 'GET' ? providerRefusalRedirect(new URL(request.url)) : null;
  if (refused) return Response.redirect(refused, 302);
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
