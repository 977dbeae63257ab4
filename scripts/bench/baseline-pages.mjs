// The request pages' SQL through raw pg: what the approval queue, the request lists and a request's
// detail cost when written by hand, as the yardstick for the same Outlay routes on the large history
// (`npm run bench`). Each page reads what the route shows, the same way the route reads it: one page
// by keyset order (LIMIT pageSize + 1, the extra row says there is a next page), a total counted up to
// 1,001 rows, and the current step of the page's pending requests; the detail reads the request, its
// route, line items, allocations, attachments, comments, timeline and audit trail.
const PAGE_SIZE = 25;
const COUNT_CAP = 1_000;

// The names are read by key as scalar subqueries, as the routes read them: joining five name tables
// cost PostgreSQL more time choosing a join order than running the page.
const REQUEST_COLUMNS = `r.*, (SELECT o.name FROM organizations o WHERE o.id = r.organization_id) AS organization_name,
  (SELECT d.name FROM departments d WHERE d.id = r.department_id) AS department_name,
  (SELECT c.name FROM categories c WHERE c.id = r.category_id) AS category_name,
  (SELECT v.name FROM vendors v WHERE v.id = r.vendor_id) AS vendor_name,
  (SELECT u.first_name FROM users u WHERE u.id = r.requester_id) AS requester_first_name,
  (SELECT u.last_name FROM users u WHERE u.id = r.requester_id) AS requester_last_name,
  (SELECT count(*)::int FROM request_attachments ra WHERE ra.request_id = r.id) AS attachments_count,
  jsonb_array_length(r.policy_findings) AS findings_count`;

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
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ${COUNT_CAP + 1}) capped`,
    params,
  );
  return Math.min(rows[0].n, COUNT_CAP);
}

export function registerPages(app, pool) {
  // The approval queue: the caller's open items on active steps of pending requests, due first.
  app.get('/baseline/queue', async (request) => {
    const user = request.query.user;
    const where = `a.approver_id = $1 AND a.status = 'open' AND s.status = 'active' AND r.status = 'pending'`;
    const { rows } = await pool.query(
      `SELECT a.*, s.position, s.name AS step_name, s.mode, s.due_at, s.sla_hours, ${REQUEST_COLUMNS},
         (SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = a.approver_id) AS holder_name,
         (SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = a.original_approver_id) AS original_name,
         (SELECT count(*)::int FROM approval_steps sc WHERE sc.request_id = s.request_id AND sc.round = s.round) AS step_count,
         (SELECT count(*)::int FROM request_line_items li WHERE li.request_id = r.id) AS line_item_count,
         count(*) OVER () AS total
       FROM approval_assignments a JOIN approval_steps s ON s.id = a.step_id JOIN spending_requests r ON r.id = a.request_id
       WHERE ${where} ORDER BY coalesce(s.due_at, 'infinity'::timestamptz), r.seq LIMIT ${PAGE_SIZE + 1}`,
      [user],
    );
    // As the route: the page sorts every open item anyway, so a window counts them.
    return { items: rows.slice(0, PAGE_SIZE), total: Math.min(Number(rows[0]?.total ?? 0), COUNT_CAP) };
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
      // As the route: the title's lower-case copy, and only a word with a digit can be part of a reference.
      const inTitle = `r.title_folded LIKE lower($${params.length})`;
      parts.push(
        /\d/.test(q) ? `(${inTitle} OR ('REQ-' || lpad(r.seq::text, 6, '0')) ILIKE $${params.length})` : inTitle,
      );
    }
    const where = parts.length > 0 ? parts.join(' AND ') : 'true';
    let rows;
    let total;
    // As the route: a word of three or more letters searched across every request reads the newest
    // postings of each title word that contains it (an index range apiece), merged.
    const byWords = q && /^[a-z]{3,}$/i.test(q) && parts.length === 1;
    if (byWords) {
      const { rows: page } = await pool.query(
        `WITH walk AS (SELECT h.seq, h.created_at FROM (SELECT word FROM request_title_words WHERE word LIKE $1) w
           CROSS JOIN LATERAL (SELECT p.seq, p.created_at FROM request_title_postings p WHERE p.word = w.word COLLATE "C" ORDER BY p.created_at DESC, p.seq DESC LIMIT ${COUNT_CAP + 1}) h
           GROUP BY h.seq, h.created_at ORDER BY h.created_at DESC, h.seq DESC LIMIT ${COUNT_CAP + 1})
         SELECT ${REQUEST_COLUMNS}, (SELECT count(*)::int FROM walk) AS capped FROM spending_requests r
         WHERE r.seq IN (SELECT w.seq FROM walk w ORDER BY w.created_at DESC, w.seq DESC LIMIT ${PAGE_SIZE + 1}) ORDER BY r.created_at DESC, r.seq DESC`,
        [`%${q.toLowerCase()}%`],
      );
      rows = page;
      total = Math.min(page[0]?.capped ?? 0, COUNT_CAP);
    } else if (q) {
      // A search's first page, as the route reads it: one statement whose walk over the first COUNT_CAP + 1
      // matches (a CTE) gives the count and the page's keys, and the page's rows read by those keys.
      const { rows: page } = await pool.query(
        `WITH walk AS (SELECT r.seq, r.created_at FROM spending_requests r WHERE ${where} ORDER BY r.created_at DESC, r.seq DESC LIMIT ${COUNT_CAP + 1})
         SELECT ${REQUEST_COLUMNS}, (SELECT count(*)::int FROM walk) AS capped FROM spending_requests r
         WHERE r.seq IN (SELECT w.seq FROM walk w ORDER BY w.created_at DESC, w.seq DESC LIMIT ${PAGE_SIZE + 1}) ORDER BY r.created_at DESC, r.seq DESC`,
        params,
      );
      rows = page;
      total = Math.min(page[0]?.capped ?? 0, COUNT_CAP);
    } else {
      rows = (
        await pool.query(
          `SELECT ${REQUEST_COLUMNS} FROM spending_requests r WHERE ${where} ORDER BY r.created_at DESC, r.seq DESC LIMIT ${PAGE_SIZE + 1}`,
          params,
        )
      ).rows;
      total = await cappedCount(pool, 'spending_requests r', where, params);
    }
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
      `SELECT ${REQUEST_COLUMNS}, (SELECT pb.first_name FROM users pb WHERE pb.id = r.paid_by_id) AS paid_by_first_name,
         (SELECT pb.last_name FROM users pb WHERE pb.id = r.paid_by_id) AS paid_by_last_name
       FROM spending_requests r WHERE r.id = $1`,
      [id],
    );
    if (rows.length === 0) return reply.code(404).send({ message: 'not found' });
    const steps = await latestSteps(pool, [id]);
    const one = (sql) => pool.query(sql, [id]).then((r) => r.rows);
    const [lineItems, allocations, attachments, comments, events, audit] = [
      await one(
        `SELECT li.*, c.name AS category_name FROM request_line_items li LEFT JOIN categories c ON c.id = li.category_id WHERE li.request_id = $1 ORDER BY li.position`,
      ),
      await one(
        `SELECT a.department_id, d.name, a.percent FROM request_allocations a JOIN departments d ON d.id = a.department_id WHERE a.request_id = $1 ORDER BY a.percent DESC, d.name`,
      ),
      await one(
        `SELECT a.*, u.first_name, u.last_name FROM request_attachments a LEFT JOIN users u ON u.id = a.uploaded_by_id WHERE a.request_id = $1 ORDER BY a.created_at, a.id`,
      ),
      await one(
        `SELECT c.*, u.first_name, u.last_name FROM request_comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.request_id = $1 ORDER BY c.created_at, c.id`,
      ),
      await one(`SELECT e.*, a.first_name, a.last_name, b.first_name AS behalf_first_name, b.last_name AS behalf_last_name
                 FROM request_events e LEFT JOIN users a ON a.id = e.actor_id LEFT JOIN users b ON b.id = e.on_behalf_of_id WHERE e.request_id = $1 ORDER BY e.id`),
      await one(`SELECT e.*, u.first_name, u.last_name FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
                 WHERE e.entity_type = 'spending_request' AND e.entity_id = $1 ORDER BY e.id`),
    ];
    return { ...rows[0], steps, lineItems, allocations, attachments, comments, timeline: events, audit };
  });
  // Search for a group-scope reader, with the words already read out of the box (`text`, the
  // other records' `words`, and the filters), in the statements the route sends: the settings with
  // the names a search's words may name; then, for words, one statement that plans the walk, reads
  // a misspelt word's look-alike title words with the plan for them, and the vendors, people, budget
  // lines and policies alike to the words, followed by the walk; for filter words only, one
  // statement of the newest requests inside the filters beside the other records.
  app.get('/baseline/search', async (request) => {
    const { text = '', words = '', org, category, min, from, to } = request.query;
    const WALK_CAP = 2000;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('pg_trgm.word_similarity_threshold', '0.5', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true),
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'code', code, 'currency', currency, 'kind', kind)) FROM organizations) AS organizations,
        (SELECT json_agg(json_build_object('id', id, 'name', name, 'code', code)) FROM categories WHERE active) AS categories`);
      // Each statement's parameters: `$` adds a value and answers its placeholder.
      const bind = () => {
        const params = [];
        return { params, $: (value) => `$${params.push(value)}` };
      };
      const whereOf = ($) => {
        const parts = [];
        if (org) parts.push(`r.organization_id = ${$(org)}`);
        if (category) parts.push(`r.category_id = ${$(category)}`);
        if (min) parts.push(`r.amount_group >= ${$(min)}`);
        if (from) parts.push(`r.created_at >= ${$(from)}::date`);
        if (to) parts.push(`r.created_at < ${$(to)}::date + 1`);
        return parts.join(' AND ') || 'true';
      };

      // The other records, as JSON columns of the statement.
      const list = words.split(/\s+/).filter((w) => w.length >= 2);
      const others = ($) => {
        const ps = list.map((w) => $(w));
        const similar = (expr) =>
          `round(((${ps.map((p) => `word_similarity(${p}, ${expr})`).join(' + ')}) / ${ps.length})::numeric, 3)::float8`;
        const any = (expr) => `(${ps.map((p) => `${p} <% ${expr}`).join(' OR ')})`;
        const userText = `lower(u.first_name || ' ' || u.last_name || ' ' || u.username || ' ' || u.email)`;
        const budgetText = `(o.name || ' ' || coalesce(d.name, '') || ' ' || coalesce(c.name, '') || ' ' || coalesce(b.notes, ''))`;
        const policyText = `(p.name || ' ' || coalesce(p.description, ''))`;
        const top = (rows, order) => `(SELECT coalesce(json_agg(h ORDER BY ${order}), '[]'::json) FROM (${rows}) h)`;
        return [
          `${top(`SELECT v.id, v.name, o.name AS detail, ${similar('v.name')} AS score FROM vendors v JOIN organizations o ON o.id = v.organization_id WHERE ${any('v.name')} ORDER BY score DESC, v.name LIMIT 5`, 'h.score DESC, h.name')} AS vendors`,
          `${top(`SELECT u.id, u.first_name, u.last_name, u.username, u.email, ${similar(userText)} AS score FROM users u WHERE ${any(userText)} ORDER BY score DESC, u.last_name, u.first_name LIMIT 5`, 'h.score DESC, h.last_name, h.first_name')} AS users`,
          `${top(
            `SELECT b.id, b.organization_id, b.period_type, b.period_start, b.amount::text AS amount, b.currency, o.name AS org, d.name AS dept, c.name AS cat, ${similar(budgetText)} AS score
               FROM budget_lines b JOIN organizations o ON o.id = b.organization_id LEFT JOIN departments d ON d.id = b.department_id LEFT JOIN categories c ON c.id = b.category_id
              WHERE ${any(budgetText)} ORDER BY score DESC, b.period_start DESC, b.id LIMIT 5`,
            'h.score DESC, h.period_start DESC, h.id',
          )} AS budgets`,
          `${top(`SELECT p.id, p.name, p.description AS detail, ${similar(policyText)} AS score FROM policy_rules p WHERE ${any(policyText)} ORDER BY score DESC, p.name LIMIT 5`, 'h.score DESC, h.name')} AS policies`,
        ].join(',\n');
      };
      const columns =
        'r.id, r.seq, r.title, r.status, r.amount::text AS amount, r.currency, r.requester_id, r.organization_id, r.created_at, r.search_vector';
      const page = (inner, score) =>
        `SELECT c.id, c.seq, c.title, c.status, c.amount, c.currency, c.requester_id, o.name AS organization_name, c.created_at, ${score} AS score FROM (${inner}) c
           JOIN organizations o ON o.id = c.organization_id ORDER BY score DESC, c.created_at DESC, c.seq DESC LIMIT 20`;

      let requests = [];
      let otherRows = [];
      if (!text) {
        const { params, $ } = bind();
        const newest = `SELECT ${columns} FROM (SELECT seq, created_at FROM spending_requests r WHERE ${whereOf($)} ORDER BY r.created_at DESC, r.seq DESC LIMIT 100) k
          JOIN spending_requests r ON r.seq = k.seq ORDER BY k.created_at DESC, k.seq DESC LIMIT 100`;
        const { rows } = await client.query(
          `SELECT (SELECT coalesce(json_agg(x ORDER BY x.score DESC, x.created_at DESC, x.seq DESC), '[]'::json) FROM (${page(newest, '0.9')}) x) AS hits${list.length > 0 ? `, ${others($)}` : ''}`,
          params,
        );
        requests = rows[0].hits;
        otherRows = rows[0];
      } else {
        // Each word of the text as a prefix: its lexemes, how many request words carry them, and
        // (only when a word is on no request) its look-alike title words and the plan with them.
        const textWords = text.split(/\s+/);
        const { params, $ } = bind();
        const values = textWords.map((w, i) => `(${i}, ${$(w)}::text, true)`).join(', ');
        const plan = (
          p,
          rel,
        ) => `${p}stems AS (SELECT i, prefix, (SELECT s.lexeme FROM unnest(to_tsvector('english'::regconfig, word)) AS s LIMIT 1) AS stem FROM ${rel}),
          ${p}lexemes AS (SELECT st.i, found.lexeme FROM ${p}stems st CROSS JOIN LATERAL (
            SELECT lexeme FROM request_search_lexemes
             WHERE lexeme >= st.stem AND lexeme < CASE WHEN st.prefix THEN left(st.stem, -1) || chr(ascii(right(st.stem, 1)) + 1) ELSE st.stem || chr(1) END
             ORDER BY lexeme LIMIT 20) AS found),
          ${p}terms AS (SELECT st.i, bool_or(st.stem IS NOT NULL) AS stemmed, (SELECT array_agg(DISTINCT l.lexeme) FROM ${p}lexemes l WHERE l.i = st.i) AS lexemes FROM ${p}stems st GROUP BY st.i),
          ${p}plan AS (SELECT i, stemmed, lexemes, (SELECT count(*) FROM (SELECT 1 FROM request_search_words rw WHERE rw.lexeme = ANY (t.lexemes) LIMIT ${WALK_CAP}) AS c)::int AS n FROM ${p}terms t)`;
        const { rows } = await client.query(
          `WITH words(i, word, prefix) AS (VALUES ${values}),
           ${plan('typed_', 'words')},
           alike AS (
             SELECT w.i, w.word AS query, found.word FROM words w CROSS JOIN LATERAL (
               SELECT t.word FROM request_title_words t
                WHERE t.word % w.word AND EXISTS (SELECT 1 FROM typed_plan tp WHERE tp.stemmed AND (tp.lexemes IS NULL OR cardinality(tp.lexemes) = 0))
                ORDER BY similarity(t.word, w.word) DESC, t.word LIMIT 3) AS found
             WHERE length(w.word) >= 3),
           widened_words AS (SELECT i, word, prefix FROM words UNION SELECT i, word, false FROM alike WHERE word <> query),
           ${plan('widened_', 'widened_words')}
           SELECT (SELECT json_agg(p) FROM typed_plan p) AS typed, (SELECT json_agg(a) FROM alike a) AS alike,
                  CASE WHEN EXISTS (SELECT 1 FROM alike) THEN (SELECT json_agg(p) FROM widened_plan p) END AS widened
                  ${list.length > 0 ? `, ${others($)}` : ''}`,
          params,
        );
        otherRows = rows[0];
        const walkOf = (plans) => {
          const live = (plans ?? []).filter((r) => r.stemmed);
          if (live.length === 0) return null;
          if (live.some((r) => !r.lexemes || r.lexemes.length === 0)) return { none: true };
          const rarest = live.reduce((a, b) => (b.n < a.n ? b : a));
          return { lexemes: rarest.lexemes, complete: rarest.n < WALK_CAP };
        };
        let walk = walkOf(rows[0].typed);
        let tsquery = textWords.map((w) => `${w}:*`).join(' & ');
        if (walk?.none) {
          const like = (w) => (rows[0].alike ?? []).filter((a) => a.query === w && a.word !== w).map((a) => a.word);
          tsquery = textWords
            .map((w) => (like(w).length > 0 ? `(${[`${w}:*`, ...like(w)].join(' | ')})` : `${w}:*`))
            .join(' & ');
          walk = walkOf(rows[0].widened);
        }
        if (walk && !walk.none) {
          // The walk: the newest requests carrying the rarest term's lexemes, merged in time order,
          // each read by its number; the queries parsed once per run (as the route's scalar subqueries).
          const { params: walkParams, $: w$ } = bind();
          const where = whereOf(w$);
          const q = w$(tsquery);
          const titleQ = w$(
            tsquery.replace(/([\p{L}\p{N}]+)(:\*)?/gu, (_m, word, prefix) => `${word}${prefix ?? ':'}A`),
          );
          const tx = w$(text);
          const branches = walk.lexemes.map(
            (l) =>
              `(SELECT seq, created_at FROM request_search_words WHERE lexeme = ${w$(l)} ORDER BY created_at DESC, seq DESC LIMIT ${WALK_CAP})`,
          );
          const walked = `SELECT ${columns} FROM (SELECT seq, created_at FROM (${branches.join(' UNION ALL ')}) u ORDER BY created_at DESC, seq DESC LIMIT ${WALK_CAP}) w
              JOIN spending_requests r ON r.seq = w.seq
             WHERE ${where} AND r.search_vector @@ (SELECT to_tsquery('english'::regconfig, ${q})) ORDER BY w.created_at DESC, w.seq DESC LIMIT 100`;
          const score = `least(1, round((0.5 * word_similarity(${tx}, c.title)
            + CASE WHEN c.search_vector @@ (SELECT to_tsquery('english'::regconfig, ${titleQ})) THEN 0.3 ELSE 0 END
            + CASE WHEN c.search_vector @@ (SELECT to_tsquery('english'::regconfig, ${q})) THEN 0.2 ELSE 0 END)::numeric, 3))::float8`;
          requests = (await client.query(page(walked, score), walkParams)).rows;
        }
      }
      await client.query('COMMIT');
      const count = (k) => (Array.isArray(otherRows?.[k]) ? otherRows[k].length : 0);
      return {
        results: requests.length + count('vendors') + count('users') + count('budgets') + count('policies'),
        requests: requests.length,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  });
}
