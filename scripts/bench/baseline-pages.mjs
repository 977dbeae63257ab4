// The request pages' SQL through raw pg: what the approval queue, the request lists and a request's
// detail cost when written by hand, as the yardstick for the same Outlay routes on the large history
// (`npm run bench`). Each page reads what the route shows, the same way the route reads it: one page
// by keyset order (LIMIT pageSize + 1, the extra row says there is a next page), a total counted up to
// 1,001 rows, and the current step of the page's pending requests; the detail reads the request, its
// route, line items, allocations, attachments, comments, timeline and audit trail.
const PAGE_SIZE = 25;
const COUNT_CAP = 1_000;

const REQUEST_COLUMNS = `r.*, o.name AS organization_name, d.name AS department_name, c.name AS category_name, v.name AS vendor_name,
  u.first_name AS requester_first_name, u.last_name AS requester_last_name,
  (SELECT count(*)::int FROM request_attachments ra WHERE ra.request_id = r.id) AS attachments_count,
  jsonb_array_length(r.policy_findings) AS findings_count`;
const REQUEST_JOINS = `JOIN organizations o ON o.id = r.organization_id JOIN users u ON u.id = r.requester_id
  LEFT JOIN departments d ON d.id = r.department_id LEFT JOIN categories c ON c.id = r.category_id LEFT JOIN vendors v ON v.id = r.vendor_id`;

/** The latest round's steps of some requests with their assignments and approvers' names. */
async function latestSteps(pool, ids) {
  if (ids.length === 0) return [];
  const { rows: steps } = await pool.query(
    `SELECT s.* FROM approval_steps s WHERE s.request_id = ANY($1::uuid[])
       AND s.round = (SELECT max(s2.round) FROM approval_steps s2 WHERE s2.request_id = s.request_id) ORDER BY s.position`,
    [ids],
  );
  if (steps.length === 0) return [];
  const { rows: assignments } = await pool.query(
    `SELECT a.*, p.first_name, p.last_name, op.first_name AS original_first_name, op.last_name AS original_last_name
     FROM approval_assignments a LEFT JOIN users p ON p.id = a.approver_id LEFT JOIN users op ON op.id = a.original_approver_id
     WHERE a.step_id = ANY($1::uuid[]) ORDER BY a.created_at`,
    [steps.map((s) => s.id)],
  );
  return steps.map((step) => ({ step, assignments: assignments.filter((a) => a.step_id === step.id) }));
}

async function cappedCount(pool, from, where, params) {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ${COUNT_CAP + 1}) capped`, params);
  return Math.min(rows[0].n, COUNT_CAP);
}

export function registerPages(app, pool) {
  // The approval queue: the caller's open items on active steps of pending requests, due first.
  app.get('/baseline/queue', async (request) => {
    const user = request.query.user;
    const where = `a.approver_id = $1 AND a.status = 'open' AND s.status = 'active' AND r.status = 'pending'`;
    const { rows } = await pool.query(
      `SELECT a.*, s.position, s.name AS step_name, s.mode, s.due_at, s.sla_hours, ${REQUEST_COLUMNS},
         (SELECT count(*)::int FROM approval_steps sc WHERE sc.request_id = s.request_id AND sc.round = s.round) AS step_count,
         (SELECT count(*)::int FROM request_line_items li WHERE li.request_id = r.id) AS line_item_count
       FROM approval_assignments a JOIN approval_steps s ON s.id = a.step_id JOIN spending_requests r ON r.id = a.request_id ${REQUEST_JOINS}
       WHERE ${where} ORDER BY coalesce(s.due_at, 'infinity'::timestamptz), r.seq LIMIT ${PAGE_SIZE + 1}`,
      [user],
    );
    const total = await cappedCount(pool, 'approval_assignments a JOIN approval_steps s ON s.id = a.step_id JOIN spending_requests r ON r.id = a.request_id', where, [user]);
    return { items: rows.slice(0, PAGE_SIZE), total };
  });

  // The request lists: a scope (organization), my requests (requester), a status, a search; newest first.
  app.get('/baseline/requests', async (request) => {
    const { requester, organization, status, q } = request.query;
    const parts = [];
    const params = [];
    const add = (sql, value) => {
      params.push(value);
      parts.push(sql.replace('?', `$${params.length}`));
    };
    if (requester) add('r.requester_id = ?', requester);
    if (organization) add('r.organization_id = ?', organization);
    if (status) add('r.status = ?', status);
    if (q) {
      params.push(`%${q}%`);
      parts.push(`(r.title ILIKE $${params.length} OR ('REQ-' || lpad(r.seq::text, 6, '0')) ILIKE $${params.length})`);
    }
    const where = parts.length > 0 ? parts.join(' AND ') : 'true';
    const { rows } = await pool.query(
      `SELECT ${REQUEST_COLUMNS} FROM spending_requests r ${REQUEST_JOINS} WHERE ${where} ORDER BY r.created_at DESC, r.seq DESC LIMIT ${PAGE_SIZE + 1}`,
      params,
    );
    const total = await cappedCount(pool, 'spending_requests r', where, params);
    const steps = await latestSteps(
      pool,
      rows.filter((r) => r.status === 'pending').map((r) => r.id),
    );
    return { items: rows.slice(0, PAGE_SIZE), total, steps: steps.length };
  });

  // A request's detail for someone who may see it (here: the requester or a group-scope reader).
  app.get('/baseline/requests/:id', async (request, reply) => {
    const id = request.params.id;
    const { rows } = await pool.query(
      `SELECT ${REQUEST_COLUMNS}, pb.first_name AS paid_by_first_name, pb.last_name AS paid_by_last_name
       FROM spending_requests r ${REQUEST_JOINS} LEFT JOIN users pb ON pb.id = r.paid_by_id WHERE r.id = $1`,
      [id],
    );
    if (rows.length === 0) return reply.code(404).send({ message: 'not found' });
    const steps = await latestSteps(pool, [id]);
    const one = (sql) => pool.query(sql, [id]).then((r) => r.rows);
    const [lineItems, allocations, attachments, comments, events, audit] = [
      await one(`SELECT li.*, c.name AS category_name FROM request_line_items li LEFT JOIN categories c ON c.id = li.category_id WHERE li.request_id = $1 ORDER BY li.position`),
      await one(`SELECT a.department_id, d.name, a.percent FROM request_allocations a JOIN departments d ON d.id = a.department_id WHERE a.request_id = $1 ORDER BY a.percent DESC, d.name`),
      await one(`SELECT a.*, u.first_name, u.last_name FROM request_attachments a LEFT JOIN users u ON u.id = a.uploaded_by_id WHERE a.request_id = $1 ORDER BY a.created_at, a.id`),
      await one(`SELECT c.*, u.first_name, u.last_name FROM request_comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.request_id = $1 ORDER BY c.created_at, c.id`),
      await one(`SELECT e.*, a.first_name, a.last_name, b.first_name AS behalf_first_name, b.last_name AS behalf_last_name
                 FROM request_events e LEFT JOIN users a ON a.id = e.actor_id LEFT JOIN users b ON b.id = e.on_behalf_of_id WHERE e.request_id = $1 ORDER BY e.id`),
      await one(`SELECT e.*, u.first_name, u.last_name FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
                 WHERE e.entity_type = 'spending_request' AND e.entity_id = $1 ORDER BY e.id`),
    ];
    return { ...rows[0], steps, lineItems, allocations, attachments, comments, timeline: events, audit };
  });
}
