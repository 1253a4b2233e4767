#include "core/storage/runrowwriter.h"

#include "core/campaign/campaignhash.h"
#include "core/storage/runowner.h"
#include "core/storage/storagewriter.h"
#include "core/storage/writercontext.h"
#include "core/util/version.h"

#include <QDateTime>

#include <unistd.h>

namespace Throughline {

std::string toString(RunStatus s)
{
    switch (s) {
    case RunStatus::Running:
        return "running";
    case RunStatus::Completed:
        return "completed";
    case RunStatus::Cancelled:
        return "cancelled";
    case RunStatus::Crashed:
        return "crashed";
    }
    return "crashed";
}

namespace {

constexpr int kRow = 100; // SQLITE_ROW

std::string utcIso(std::int64_t unixNs)
{
    return QDateTime::fromMSecsSinceEpoch(unixNs / 1000000, Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

std::string utcText(const QDateTime &utc)
{
    return utc.toString(Qt::ISODateWithMs).toStdString();
}

std::string nowUtc()
{
    return utcText(QDateTime::currentDateTimeUtc());
}

Result<std::int64_t> campaignId(WriterContext &ctx, const RunStart &run)
{
    // Both apps store the canonical text, so this is the campaign hash of results.json too.
    const std::string sha = campaignSha256(run.campaignJson);
    auto c = ctx.db.prepare("INSERT INTO campaigns(sha256, name, json) VALUES(?, ?, ?) "
                            "ON CONFLICT(sha256) DO NOTHING");
    if (!c)
        return c.error();
    c->bind(1, sha).bind(2, run.campaignName).bind(3, run.campaignJson);
    if (auto s = ctx.run(*c, "insert campaign"); !s)
        return s.error();
    auto cid = ctx.db.prepare("SELECT id FROM campaigns WHERE sha256 = ?");
    if (!cid)
        return cid.error();
    cid->bind(1, sha);
    cid->step();
    return cid->colInt(0);
}

Status insertScenarios(WriterContext &ctx, std::int64_t runId, const RunStart &run)
{
    auto sc = ctx.db.prepare(
        "INSERT INTO scenarios(run_id, idx, scenario_key, model, backend, gpu, gpus, prefill_gpus, "
        "decode_gpus, phase, isl, osl, config) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!sc)
        return sc.error();
    for (const ScenarioInfo &s : run.scenarios) {
        sc->bind(1, runId)
            .bind(2, s.index)
            .bind(3, s.key)
            .bind(4, s.model)
            .bind(5, s.backend)
            .bind(6, s.gpu)
            .bind(7, s.gpus)
            .bind(8, s.prefillGpus)
            .bind(9, s.decodeGpus)
            .bind(10, s.phase)
            .bind(11, s.isl)
            .bind(12, s.osl)
            .bind(13, s.config.dump());
        if (auto st = ctx.run(*sc, "insert scenario"); !st)
            return st;
        const std::int64_t sid = ctx.db.lastInsertId();
        ctx.scenarioIds[{runId, s.index}] = sid;
        for (std::size_t i = 0; i < s.plannedPoints.size(); ++i) {
            ctx.insertPoint.bind(1, sid)
                .bind(2, runId)
                .bind(3, static_cast<int>(i))
                .bind(4, "pending")
                .bind(5, s.plannedPoints[i].dump());
            if (auto st = ctx.run(ctx.insertPoint, "insert planned point"); !st)
                return st;
            ctx.pointIds[{runId, s.index, static_cast<int>(i)}] = ctx.db.lastInsertId();
        }
    }
    return Ok{};
}

} // namespace

Status RunRowWriter::begin(WriterContext &ctx, const RunStart &run)
{
    auto campaign = campaignId(ctx, run);
    if (!campaign)
        return campaign.error();
    auto r = ctx.db.prepare(
        "INSERT INTO runs(uuid, campaign_id, plan_id, status, started_utc, t0_unix_ns, simulated, "
        "time_scale, tool_version, provenance, notes, store_text, source, shard, writer_host, "
        "writer_pid, writer_start, heartbeat_utc, writer_boot_id, writer_pidns, lease_until_utc) "
        "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!r)
        return r.error();
    const RunOwner owner = RunOwnership::self();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    r->bind(1, run.uuid)
        .bind(2, *campaign)
        .bind(3, run.planId)
        .bind(4, "running")
        .bind(5, utcIso(run.t0UnixNs))
        .bind(6, run.t0UnixNs)
        .bind(7, run.simulated ? 1 : 0)
        .bind(8, run.timeScale)
        .bind(9, toolVersion())
        .bind(10, run.provenance.dump())
        .bind(11, run.notes)
        .bind(12, run.storeText ? 1 : 0)
        .bind(13, run.source)
        .bind(14, run.shard)
        .bind(15, owner.host)
        .bind(16, owner.pid)
        .bind(17, owner.startTicks)
        .bind(18, utcText(now))
        .bind(19, owner.bootId)
        .bind(20, owner.pidNamespace)
        .bind(21, RunOwnership::leaseUntil(now));
    if (auto s = ctx.run(*r, "insert run"); !s)
        return s;
    const std::int64_t runId = ctx.db.lastInsertId();
    ctx.runIds[run.uuid] = runId;
    ctx.storeText[run.uuid] = run.storeText;
    auto t = ctx.db.prepare("INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES(?, ?)");
    if (!t)
        return t.error();
    for (const std::string &tag : run.tags) {
        t->bind(1, runId).bind(2, tag);
        if (auto s = ctx.run(*t, "insert tag"); !s)
            return s;
    }
    if (auto s = insertScenarios(ctx, runId, run); !s)
        return s;
    auto tg = ctx.db.prepare("INSERT INTO targets_used(run_id, name, json) VALUES(?, ?, ?)");
    if (!tg)
        return tg.error();
    for (const nlohmann::json &target : run.targets) {
        tg->bind(1, runId).bind(2, target.value("name", std::string())).bind(3, target.dump());
        if (auto st = ctx.run(*tg, "insert target"); !st)
            return st;
    }
    return Ok{};
}

Status RunRowWriter::reopen(WriterContext &ctx, const std::string &runUuid)
{
    auto st = ctx.db.prepare("UPDATE runs SET status = 'running', finished_utc = NULL, writer_host = ?, "
                             "writer_pid = ?, writer_start = ?, heartbeat_utc = ?, writer_boot_id = ?, "
                             "writer_pidns = ?, lease_until_utc = ? WHERE uuid = ? AND "
                             "status IN ('crashed', 'cancelled')");
    if (!st)
        return st.error();
    const RunOwner owner = RunOwnership::self();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    st->bind(1, owner.host)
        .bind(2, owner.pid)
        .bind(3, owner.startTicks)
        .bind(4, utcText(now))
        .bind(5, owner.bootId)
        .bind(6, owner.pidNamespace)
        .bind(7, RunOwnership::leaseUntil(now))
        .bind(8, runUuid);
    if (auto s = ctx.run(*st, "reopen run"); !s)
        return s;
    if (ctx.db.changes() == 0)
        return makeError(ErrorCode::NotFound, "cannot resume: run " + runUuid + " is not in " +
                                                  ctx.db.path() + " as a crashed or cancelled run");
    return Ok{};
}

Status RunRowWriter::finish(WriterContext &ctx, const std::string &runUuid, RunStatus status)
{
    auto st = ctx.db.prepare("UPDATE runs SET status = ?, finished_utc = ? WHERE uuid = ?");
    if (!st)
        return st.error();
    st->bind(1, toString(status)).bind(2, nowUtc()).bind(3, runUuid);
    return ctx.run(*st, "finish run");
}

Status RunRowWriter::update(WriterContext &ctx, const std::string &runUuid, const nlohmann::json &provenance,
                            bool simulated, double timeScale, std::int64_t t0UnixNs)
{
    auto sel = ctx.db.prepare("SELECT provenance FROM runs WHERE uuid = ?");
    if (!sel)
        return sel.error();
    sel->bind(1, runUuid);
    if (sel->step() != kRow)
        return makeError(ErrorCode::NotFound, "run " + runUuid + " is not in " + ctx.db.path());
    nlohmann::json merged = nlohmann::json::parse(sel->colText(0), nullptr, false);
    if (!merged.is_object())
        merged = nlohmann::json::object();
    if (provenance.is_object())
        merged.update(provenance);
    auto st = ctx.db.prepare("UPDATE runs SET provenance = ?, simulated = ?, time_scale = ?, "
                             "started_utc = CASE WHEN ? = 0 THEN started_utc ELSE ? END, "
                             "t0_unix_ns = CASE WHEN ? = 0 THEN t0_unix_ns ELSE ? END WHERE uuid = ?");
    if (!st)
        return st.error();
    st->bind(1, merged.dump())
        .bind(2, simulated ? 1 : 0)
        .bind(3, timeScale)
        .bind(4, t0UnixNs)
        .bind(5, t0UnixNs != 0 ? utcIso(t0UnixNs) : std::string())
        .bind(6, t0UnixNs)
        .bind(7, t0UnixNs)
        .bind(8, runUuid);
    return ctx.run(*st, "update run");
}

void RunRowWriter::heartbeat(WriterContext &ctx)
{
    const auto now = std::chrono::steady_clock::now();
    if (now - ctx.lastHeartbeat <= std::chrono::seconds(2))
        return;
    ctx.lastHeartbeat = now;
    // Renews the lease too: a reader that cannot check this pid sees the run alive while the lease holds.
    auto hb = ctx.db.prepare("UPDATE runs SET heartbeat_utc = ?, lease_until_utc = ? WHERE status = "
                             "'running' AND writer_pid = ? AND writer_host = ?");
    const QDateTime utc = QDateTime::currentDateTimeUtc();
    if (hb)
        hb->bind(1, utcText(utc))
            .bind(2, RunOwnership::leaseUntil(utc))
            .bind(3, static_cast<std::int64_t>(getpid()))
            .bind(4, StorageWriter::hostName())
            .run();
}

Status RunRowWriter::setScenarioVerdict(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                        const nlohmann::json &verdict)
{
    auto ref = ctx.scenario(runUuid, scenarioIndex);
    if (!ref)
        return ref.error();
    auto st = ctx.db.prepare("UPDATE scenarios SET verdict = ?, verdict_json = ? WHERE id = ?");
    if (!st)
        return st.error();
    std::string status = verdict.is_object() ? verdict.value("status", std::string()) : std::string();
    if (verdict.is_string())
        status = verdict.get<std::string>();
    st->bind(1, status).bind(2, verdict.dump()).bind(3, ref->scenario);
    return ctx.run(*st, "set verdict");
}

Status RunRowWriter::setScenarioColdStart(WriterContext &ctx, const std::string &runUuid, int scenarioIndex,
                                          const nlohmann::json &coldStart)
{
    auto ref = ctx.scenario(runUuid, scenarioIndex);
    if (!ref)
        return ref.error();
    auto st =
        ctx.db.prepare("UPDATE scenarios SET config = json_set(CASE WHEN json_valid(config) THEN config "
                       "ELSE '{}' END, '$.cold_start', json(?)) WHERE id = ?");
    if (!st)
        return st.error();
    st->bind(1, coldStart.dump()).bind(2, ref->scenario);
    return ctx.run(*st, "set cold start");
}

} // namespace Throughline
