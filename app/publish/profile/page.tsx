import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { publishFlash } from '@/components/publish/flash';
import { FlashMessage } from '@/components/ui/flash-message';
import { publishPaths } from '@/lib/site/paths';
import { ProfileForm } from '@/components/publish/profile-form';
import { requireSessionUser } from '@/lib/accounts';
import { findPublisherForUser, PROFILE_LIMITS, toProfileView } from '@/lib/publishing';
import { getDb } from '@/lib/platform/db';
import { updateProfileAction } from '../actions';

export const metadata: Metadata = { title: 'Publisher profile' };

export default async function PublisherProfilePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireSessionUser(publishPaths.profile);
  const publisher = await findPublisherForUser(await getDb(), user.id);
  if (!publisher) redirect(publishPaths.overview);
  const view = toProfileView(publisher);
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Publisher profile</h1>
      <p className="mt-1 text-sm text-slate-700">What buyers see on your public page, and how the operator reaches you.</p>
      <div className="mt-6">
        <FlashMessage message={publishFlash.read((await searchParams).flash)} />
        <ProfileForm
          action={updateProfileAction}
          initial={{ name: view.name, slug: view.slug, websiteUrl: view.websiteUrl ?? '', bio: view.bio, contactEmail: view.contactEmail }}
          submitLabel="Save profile"
          limits={PROFILE_LIMITS}
        />
      </div>
    </div>
  );
}
