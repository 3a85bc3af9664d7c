import NextAuth from 'next-auth';
import { getAuthOptions } from '@/lib/auth';

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth v4's App Router handler: it detects the route context by its `params` and answers with a Response.
async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
