import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@/test/support/db';
import type { Database } from '@/lib/platform/db';
import { getKnowledgeBaseView } from '@/lib/catalog';
import { resetEnvForTesting } from '@/lib/platform/env';
import { sampleDataNoticeShown } from '@/lib/seed';
import { itemAt } from '@/lib/platform/arrays';

/** Issue 14 part 6: pages say the seeded marketplace is sample data, and "Most chosen" is earned by subscribers. */
let db: Database;
const saved = process.env.SAMPLE_DATA_NOTICE;

beforeAll(async () => {
  db = (await createTestDatabase({ seed: true })).db;
});

afterAll(() => {
  if (saved === undefined) delete process.env.SAMPLE_DATA_NOTICE;
  else process.env.SAMPLE_DATA_NOTICE = saved;
  resetEnvForTesting();
});

describe('sample marketplace', () => {
  it('the sample-data notice is on while the seeded marketplace is present, and the flag turns it off or on', async () => {
    delete process.env.SAMPLE_DATA_NOTICE;
    resetEnvForTesting();
    expect(await sampleDataNoticeShown()).toBe(true);
    process.env.SAMPLE_DATA_NOTICE = 'false';
    resetEnvForTesting();
    expect(await sampleDataNoticeShown()).toBe(false);
    process.env.SAMPLE_DATA_NOTICE = 'true';
    resetEnvForTesting();
    expect(await sampleDataNoticeShown()).toBe(true);
  });

  it('"Most chosen" is the plan with strictly the most active subscribers, and absent without subscribers', async () => {
    const rows = (
      await db.execute(sql`
      select k.id, k.subscribers_count,
        (select s.plan_id from subscriptions s where s.kb_id = k.id and s.status = 'active' group by s.plan_id order by count(*) desc, s.plan_id limit 1) as top
      from knowledge_bases k where k.status = 'published' order by k.subscribers_count desc`)
    ).rows as Array<{ id: string; subscribers_count: number; top: string | null }>;
    const busiest = itemAt(rows, 0);
    const unsubscribed = rows.find((r) => Number(r.subscribers_count) === 0)!;
    expect((await getKnowledgeBaseView(busiest.id, db))?.mostChosenPlanId).toBe(busiest.top);
    expect((await getKnowledgeBaseView(unsubscribed.id, db))?.mostChosenPlanId).toBeNull();
  });
});
