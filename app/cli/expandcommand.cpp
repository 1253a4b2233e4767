// `throughline-cli expand FILE [--format table|json|csv] [--only EXPR]`: the ordered scenario list.
#include "campaignfile.h"
#include "command.h"

#include "core/campaign/matrixexpander.h"
#include "core/campaign/scenariofilter.h"
#include "core/campaign/scenariojson.h"
#include "core/util/exitcodes.h"

#include <algorithm>
#include <cstdio>

namespace Throughline::Cli {
namespace {

std::string joinInts(const std::vector<int> &v, const char *sep)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? sep : "") + std::to_string(v[i]);
    return s;
}

std::string num(double v)
{
    // Integral values without ".0" (10xC, 90), others as JSON numbers.
    if (v == double(static_cast<long long>(v)))
        return std::to_string(static_cast<long long>(v));
    return nlohmann::json(v).dump();
}

const char *modeName(LoadPlan::Mode m)
{
    switch (m) {
    case LoadPlan::Mode::Closed:
        return "closed";
    case LoadPlan::Mode::Open:
        return "open";
    case LoadPlan::Mode::Curve:
        return "curve";
    case LoadPlan::Mode::Search:
        return "search";
    }
    return "closed";
}

// Load points as a short human string: "1,4,16" (closed), "rates 2,4" (open), "curve 1..64".
std::string points(const LoadPlan &p)
{
    switch (p.mode) {
    case LoadPlan::Mode::Closed:
        return joinInts(p.concurrencies, ",");
    case LoadPlan::Mode::Open: {
        std::string s = "rate ";
        for (size_t i = 0; i < p.rates.size(); ++i)
            s += (i ? "," : "") + num(p.rates[i]);
        return s;
    }
    case LoadPlan::Mode::Curve:
        return "curve " + std::to_string(p.cMin) + ".." + std::to_string(p.cMax);
    case LoadPlan::Mode::Search:
        return "search " + std::to_string(p.cMin) + ".." + std::to_string(p.cMax);
    }
    return {};
}

std::string requests(const LoadPlan &p)
{
    if (p.mode != LoadPlan::Mode::Closed)
        return "-";
    if (p.requestCount > 0)
        return std::to_string(p.requestCount);
    return num(p.requestMultiplier) + "xC";
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

size_t displayWidth(const std::string &s)
{
    return size_t(std::count_if(s.begin(), s.end(),
                                [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void printTable(std::FILE *out, const std::vector<Scenario> &list)
{
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"#", "scenario", "isl", "osl", "points", "requests", "endpoint"});
    for (size_t i = 0; i < list.size(); ++i) {
        const Scenario &s = list[i];
        rows.push_back({std::to_string(i + 1), s.id, std::to_string(s.phase.isl), std::to_string(s.phase.osl),
                        points(s.plan), requests(s.plan), s.endpoint.name});
    }
    std::vector<size_t> w(rows[0].size(), 0);
    for (const auto &r : rows)
        for (size_t c = 0; c < r.size(); ++c)
            w[c] = std::max(w[c], displayWidth(r[c]));
    for (const auto &r : rows) {
        std::string line;
        for (size_t c = 0; c < r.size(); ++c) {
            line += r[c];
            if (c + 1 < r.size())
                line += std::string(w[c] - displayWidth(r[c]) + 2, ' ');
        }
        std::fprintf(out, "%s\n", line.c_str());
    }
}

void printCsv(std::FILE *out, const std::vector<Scenario> &list)
{
    std::fprintf(
        out, "id,model,backend,gpu,gpus,prefill_gpus,decode_gpus,parallelism,precision,phase,isl,osl,mode,"
             "concurrencies,request_count,recipe_concurrency,endpoint,slo_ttft_ms,slo_tpot_ms,slo_e2e_ms,"
             "slo_percentile\n");
    for (const auto &s : list) {
        const std::vector<std::string> f{s.id,
                                         s.model.name,
                                         s.backend.id,
                                         s.gpu.name,
                                         std::to_string(s.deployment.totalGpus()),
                                         std::to_string(s.deployment.prefillGpus),
                                         std::to_string(s.deployment.decodeGpus),
                                         s.deployment.parallelism,
                                         s.deployment.precision,
                                         s.phase.name,
                                         std::to_string(s.phase.isl),
                                         std::to_string(s.phase.osl),
                                         modeName(s.plan.mode),
                                         joinInts(s.plan.concurrencies, ";"),
                                         std::to_string(s.plan.requestCount),
                                         std::to_string(s.recipeConcurrency),
                                         s.endpoint.name,
                                         num(s.slo.ttftMs),
                                         num(s.slo.tpotMs),
                                         num(s.slo.e2eMs),
                                         num(s.slo.percentile)};
        std::string line;
        for (size_t i = 0; i < f.size(); ++i)
            line += (i ? "," : "") + csvField(f[i]);
        std::fprintf(out, "%s\n", line.c_str());
    }
}

int runExpand(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(parser, u"List the scenarios a campaign expands to, in run order."_qs, u"FILE"_qs,
                    u"Campaign JSON file ('-' reads stdin)."_qs);
    parser.addOption(
        {u"format"_qs, u"Output format: table (default), json or csv."_qs, u"format"_qs, u"table"_qs});
    parser.addOption(
        {u"only"_qs,
         u"Keep scenarios matching key=glob[,key=glob…] over model, backend, gpu, gpus, phase."_qs,
         u"expr"_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing FILE"_qs
                                            : u"expected one FILE, got "_qs + QString::number(pos.size()));
    QString format = parser.value(u"format"_qs);
    if (format != u"table" && format != u"json" && format != u"csv")
        return ctx.usageError(u"--format: expected table, json or csv, got '"_qs + format + u"'"_qs);
    if (ctx.global().json)
        format = u"json"_qs;
    std::optional<MatrixRule> only;
    if (parser.isSet(u"only"_qs)) {
        auto r = ScenarioFilter::parse(parser.value(u"only"_qs).toStdString());
        if (!r)
            return ctx.usageError(u"--only: "_qs + QString::fromStdString(r.error().message));
        only = *r;
    }

    auto loaded = loadCampaignFile(ctx, pos.front());
    if (!loaded)
        return ExitBadInput;
    if (printProblems(ctx, *loaded) > 0 || !loaded->outcome.campaign) {
        std::fprintf(stderr, "%s: not expanded: fix the problems above (throughline-cli validate FILE)\n",
                     loaded->path.toLocal8Bit().constData());
        return ExitBadInput;
    }
    auto expanded = MatrixExpander().expand(*loaded->outcome.campaign);
    if (!expanded) {
        std::fprintf(stderr, "%s: %s\n", loaded->path.toLocal8Bit().constData(),
                     expanded.error().message.c_str());
        return ExitBadInput;
    }
    std::vector<Scenario> list = std::move(expanded).value();
    if (only) {
        std::erase_if(list, [&](const Scenario &s) {
            return !ScenarioFilter::matches(*only, MatrixExpander::keysOf(s));
        });
    }
    if (format == u"json")
        std::fprintf(
            ctx.machine(), "%s\n",
            ScenarioJson::toJson(list).dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    else if (format == u"csv")
        printCsv(stdout, list);
    else if (format == u"table")
        printTable(stdout, list);
    if (list.empty())
        std::fprintf(stderr, "%s: no scenario matches --only\n", loaded->path.toLocal8Bit().constData());
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("expand", "list the scenarios of a campaign (table, json or csv)", runExpand);

} // namespace Throughline::Cli
