#include "core/cluster/clusterjobs.h"

#include "core/campaign/shardselector.h"

#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QString>

#include <cstdio>

namespace Throughline {

namespace {

Result<std::string> readTemplate(const char *name)
{
    QFile f(QStringLiteral(":/cluster/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, std::string("built-in template :/cluster/") + name + " missing");
    return f.readAll().toStdString();
}

// For /bin/sh: 'text' with embedded single quotes closed and reopened.
std::string shellQuoted(const std::string &text)
{
    std::string q = "'";
    for (char c : text)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Replaces exactly one occurrence of `from`; a template edit that removes it must fail loudly here.
Status replaceOnce(std::string &text, const std::string &from, const std::string &to, const char *templ)
{
    const std::size_t at = text.find(from);
    if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
        return makeError(ErrorCode::Internal,
                         std::string("template ") + templ + ": expected '" + from + "' exactly once");
    text.replace(at, from.size(), to);
    return Ok{};
}

std::string slotText(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}

Status check(const ClusterJobOptions &o)
{
    auto bad = [](const std::string &m) { return makeError(ErrorCode::InvalidInput, m); };
    if (o.shards < 2 || o.shards > ShardSelector::kMaxShards)
        return bad("shards: " + std::to_string(o.shards) + " is outside 2…" +
                   std::to_string(ShardSelector::kMaxShards));
    if (!(o.pointSlotS > 0))
        return bad("point slot: must be more than 0 s");
    if (o.campaignPath.empty())
        return bad("campaign: no campaign file");
    if (!o.startAt.empty()) {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(o.startAt), Qt::ISODateWithMs);
        if (!t.isValid() || t.timeSpec() == Qt::LocalTime)
            return bad("start time: expected ISO 8601 with a zone, e.g. 2026-12-02T08:00:00Z, got '" +
                       o.startAt + "'");
    } else if (o.leadMinutes < 1) {
        return bad("start time: the lead must be at least 1 minute (time to start every shard)");
    }
    for (const std::string *v : {&o.campaignPath, &o.endpoint, &o.results, &o.binDir, &o.image})
        if (v->find_first_of("\n\"") != std::string::npos)
            return bad("'" + *v + "': no quotes or line breaks");
    if (o.scheduler == ClusterScheduler::Slurm) {
        if (o.results.empty())
            return bad("results folder: needed (a folder every node sees)");
        if (o.sbatchOptions.find_first_of("\n;&|`$") != std::string::npos)
            return bad("sbatch options: plain options only (no ; & | ` $ or line breaks)");
    } else {
        if (o.image.empty())
            return bad("image: needed (built from packaging/Dockerfile and pushed where the cluster pulls)");
        static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"));
        if (!label.match(QString::fromStdString(o.runName)).hasMatch())
            return bad("run name: '" + o.runName + "' must be a DNS label (a-z, 0-9, '-', ≤ 63 characters)");
    }
    return Ok{};
}

// The shell line that sets START_AT in a submit script.
std::string startAtLine(const ClusterJobOptions &o)
{
    if (!o.startAt.empty())
        return "START_AT=" + shellQuoted(o.startAt) + "\n";
    return "# Every shard gets the same start, " + std::to_string(o.leadMinutes) +
           " min from now (time to start every shard); override with START_AT=...\n" +
           "START_AT=${START_AT:-$(date -u -d '+" + std::to_string(o.leadMinutes) + " min' +%FT%TZ)}\n";
}

Result<std::vector<ClusterFile>> slurmFiles(const ClusterJobOptions &o)
{
    auto text = readTemplate("slurm-array.sbatch");
    if (!text)
        return text.error();
    std::string script = std::move(*text);
    const std::string n = std::to_string(o.shards);
    if (auto s =
            replaceOnce(script, "#SBATCH --array=0-3\n",
                        "#SBATCH --array=0-" + std::to_string(o.shards - 1) + "\n", "slurm-array.sbatch");
        !s)
        return s.error();
    std::string defaults = "set -euo pipefail\n# Written by Throughline for this campaign (" + n +
                           " shards); sbatch --export=ALL,NAME=... still overrides each value.\n" +
                           ": \"${CAMPAIGN:=" + o.campaignPath + "}\"\n" +
                           ": \"${POINT_SLOT_S:=" + slotText(o.pointSlotS) + "}\"\n" +
                           ": \"${RESULTS:=" + o.results + "}\"\n" + ": \"${SHARDS:=" + n + "}\"\n";
    if (!o.endpoint.empty())
        defaults += ": \"${ENDPOINT:=" + o.endpoint + "}\"\n";
    if (!o.binDir.empty())
        defaults += "export PATH=\"" + o.binDir + ":$PATH\"\n";
    if (auto s = replaceOnce(script, "set -euo pipefail\n", defaults, "slurm-array.sbatch"); !s)
        return s.error();

    const std::string cli = o.binDir.empty() ? std::string("throughline-cli") : o.binDir + "/throughline-cli";
    const std::string extra = o.sbatchOptions.empty() ? std::string() : o.sbatchOptions + " ";
    std::string submit =
        "#!/bin/sh\n"
        "# Submits the " +
        n +
        "-shard Slurm array of this campaign and its merge (a job that waits for every task),\n"
        "# as packaging/cluster/README.md describes. Run it on the login node: sh submit-slurm.sh\n"
        "set -eu\ncd \"$(dirname \"$0\")\"\n" +
        startAtLine(o) + "mkdir -p " + shellQuoted(o.results) + "\njid=$(sbatch --parsable " + extra +
        "--export=ALL,START_AT=\"$START_AT\" slurm-array.sbatch)\n" + "mid=$(sbatch --parsable " + extra +
        "--dependency=afterany:\"$jid\" --output=" + shellQuoted(o.results + "/merge-%j.log") + " --wrap \"" +
        cli + " merge " + o.results + "/shard-*/run.tlrun --out " + o.results + "/merged.tlrun\")\n" +
        "echo \"array job $jid (" + n + " shards, start $START_AT), merge job $mid -> " + o.results +
        "/merged.tlrun\"\n";
    return std::vector<ClusterFile>{{"slurm-array.sbatch", script, true}, {"submit-slurm.sh", submit, true}};
}

Result<std::vector<ClusterFile>> kubernetesFiles(const ClusterJobOptions &o)
{
    auto job = readTemplate("k8s-indexed-job.yaml");
    auto merge = readTemplate("k8s-merge-job.yaml");
    if (!job)
        return job.error();
    if (!merge)
        return merge.error();
    const std::string n = std::to_string(o.shards);
    const char *jt = "k8s-indexed-job.yaml";
    const std::string shippedImage = "image: registry.example.com/throughline-cli:0.1.0";
    for (const auto &[from, to] : std::vector<std::pair<std::string, std::string>>{
             {"completions: 4 #", "completions: " + n + " #"},
             {"parallelism: 4 #", "parallelism: " + n + " #"},
             {"value: \"4\" # N", "value: \"" + n + "\" # N"},
             {shippedImage + " # built", "image: " + o.image + " # built"},
             {"value: \"@POINT_SLOT_S@\"", "value: \"" + slotText(o.pointSlotS) + "\""},
             {"value: \"@RUN@\"", "value: \"" + o.runName + "\""},
             {"value: \"\"\n", "value: \"" + o.endpoint + "\"\n"}}) {
        if (auto s = replaceOnce(*job, from, to, jt); !s)
            return s.error();
    }
    if (!o.startAt.empty())
        if (auto s = replaceOnce(*job, "value: \"@START_AT@\"", "value: \"" + o.startAt + "\"", jt); !s)
            return s.error();
    const char *mt = "k8s-merge-job.yaml";
    if (auto s = replaceOnce(*merge, shippedImage + "\n", "image: " + o.image + "\n", mt); !s)
        return s.error();
    if (auto s = replaceOnce(*merge, "value: \"@RUN@\"", "value: \"" + o.runName + "\"", mt); !s)
        return s.error();

    std::string submit =
        "#!/bin/sh\n"
        "# Submits the " +
        n +
        "-shard Kubernetes Indexed Job of this campaign, waits for it and starts the merge Job, as\n"
        "# packaging/cluster/README.md describes. Run it where kubectl points at the namespace (a "
        "ReadWriteMany\n"
        "# claim \"throughline-results\" must exist): sh submit-kubernetes.sh\n"
        "set -eu\ncd \"$(dirname \"$0\")\"\n"
        "kubectl create configmap throughline-campaign --from-file=campaign.json=" +
        shellQuoted(o.campaignPath) + " --dry-run=client -o yaml | kubectl apply -f -\n" + startAtLine(o) +
        "sed \"s/@START_AT@/$START_AT/\" k8s-indexed-job.yaml | kubectl apply -f -\n"
        "echo \"job throughline-shards (" +
        n + " pods, start $START_AT) submitted; waiting for it to complete\"\n" +
        "kubectl wait --for=condition=complete --timeout=6h job/throughline-shards\n"
        "kubectl apply -f k8s-merge-job.yaml\n"
        "kubectl wait --for=condition=complete --timeout=1h job/throughline-merge\n"
        "echo \"merged: /results/" +
        o.runName + "/merged.tlrun on the throughline-results claim\"\n";
    return std::vector<ClusterFile>{{"k8s-indexed-job.yaml", *job, false},
                                    {"k8s-merge-job.yaml", *merge, false},
                                    {"submit-kubernetes.sh", submit, true}};
}

} // namespace

Result<std::vector<ClusterFile>> ClusterJobs::generate(const ClusterJobOptions &options)
{
    if (auto s = check(options); !s)
        return s.error();
    return options.scheduler == ClusterScheduler::Slurm ? slurmFiles(options) : kubernetesFiles(options);
}

std::string ClusterJobs::submitCommand(const ClusterJobOptions &options, const std::string &folder)
{
    return "sh " +
           shellQuoted(folder + (options.scheduler == ClusterScheduler::Slurm ? "/submit-slurm.sh"
                                                                              : "/submit-kubernetes.sh"));
}

} // namespace Throughline
