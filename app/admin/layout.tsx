import type { ReactNode } from 'react';
import { requireAdmin } from '@/lib/accounts';

export const dynamic = 'force-dynamic';

/** Every page under /admin is for operators (ADMIN_EMAILS) only; anyone else sees the site's 404 page. */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireAdmin();
  return children;
}
