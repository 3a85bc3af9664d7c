/** The rows of a raw `db.execute` result, typed by the query that produced them. */
export const rows = <T>(result: { rows: unknown[] }) => result.rows as T[];
