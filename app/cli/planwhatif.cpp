#include "planwhatif.h"

#include "core/campaign/catalog.h"
#include "core/capacity/whatif.h"
#include "core/sim/whatifcurve.h"

#include <QStringList>

#include <set>

namespace Throughline::Cli {

using namespace Throughline::Capacity;

namespace {

struct WhatIfRequest {
    std::string model, gpu;
    int gpus = 1;
    Precision precision = Precision::Fp8;
    int isl = 0, osl = 0;
    std::vector<int> concurrencies;
};

Result<WhatIfRequest> parseRequest(const QString &text)
{
    WhatIfRequest r;
    auto bad = [&](const QString &field, const std::string &why) {
        return makeError(ErrorCode::InvalidInput,
                         "--what-if field '" + field.toStdString() + "': " + why +
                             " (model=, gpu=, gpus=, precision=, isl=, osl=, concurrency=4;16)");
    };
    for (const QString &field : text.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = field.indexOf(u'=');
        const QString key = field.left(eq).trimmed(),
                      value = eq < 0 ? QString() : field.mid(eq + 1).trimmed();
        bool ok = !value.isEmpty();
        if (key == u"model")
            r.model = value.toStdString();
        else if (key == u"gpu")
            r.gpu = value.toStdString();
        else if (key == u"gpus")
            r.gpus = value.toInt(&ok);
        else if (key == u"isl")
            r.isl = value.toInt(&ok);
        else if (key == u"osl")
            r.osl = value.toInt(&ok);
        else if (key == u"precision") {
            auto p = parsePrecision(value.toStdString());
            if (!p)
                return bad(field, p.error().message);
            r.precision = p.value();
        } else if (key == u"concurrency") {
            for (const QString &c : value.split(u';', Qt::SkipEmptyParts)) {
                r.concurrencies.push_back(c.toInt(&ok));
                ok = ok && r.concurrencies.back() > 0;
                if (!ok)
                    break;
            }
        } else {
            return bad(field, "unknown key");
        }
        if (!ok || (key == u"gpus" && r.gpus <= 0) ||
            ((key == u"isl" || key == u"osl") && value.toInt() <= 0))
            return bad(field, "bad value");
    }
    if (r.model.empty() || r.gpu.empty())
        return makeError(ErrorCode::InvalidInput,
                         "--what-if '" + text.toStdString() + "': model= and gpu= are needed");
    return r;
}

std::vector<SimulatedPoint> simulated(const std::vector<WhatIfPoint> &curve)
{
    std::vector<SimulatedPoint> out;
    for (const WhatIfPoint &p : curve)
        if (p.outputTps > 0)
            out.push_back({p.concurrency, p.outputTps, p.latency});
    return out;
}

// (measured, simulated) output tok/s at the measured points of the same model (aggregated deployments the
// simulator can model, at the what-if's precision).
std::vector<std::pair<double, double>> calibrationPairs(const WhatIfRequest &r, const ModelSpec &model,
                                                        const std::vector<DeploymentCurve> &measured)
{
    const Catalog &cat = Catalog::builtin();
    std::vector<std::pair<double, double>> pairs;
    for (const DeploymentCurve &c : measured) {
        const GpuSpec *gpu = cat.gpu(c.deployment.gpu);
        if (c.model != r.model || c.deployment.disaggregated() || !gpu || c.isl <= 0 || c.osl <= 0)
            continue;
        WhatIfSpec spec;
        spec.isl = c.isl;
        spec.osl = c.osl;
        std::vector<double> tps;
        for (const Capacity::OperatingPoint &p : c.points)
            if (p.valid && p.concurrency > 0 && p.systemTps > 0) {
                spec.concurrencies.push_back(p.concurrency);
                tps.push_back(p.systemTps);
            }
        const auto sim = whatIfCurve(PerformanceModel(model, *gpu, c.deployment.gpus, r.precision), spec);
        for (std::size_t i = 0; i < sim.size() && i < tps.size(); ++i)
            if (sim[i].outputTps > 0)
                pairs.emplace_back(tps[i], sim[i].outputTps);
    }
    return pairs;
}

} // namespace

Result<DeploymentCurve> whatIfDeployment(const QString &text, const std::vector<DeploymentCurve> &measured)
{
    auto r = parseRequest(text);
    if (!r)
        return r.error();
    const Catalog &cat = Catalog::builtin();
    const ModelSpec *model = cat.model(r->model);
    const GpuSpec *gpu = cat.gpu(r->gpu);
    if (!model || !gpu)
        return makeError(ErrorCode::InvalidInput,
                         "--what-if: the catalog has no " +
                             (model ? "GPU '" + r->gpu + "'" : "model '" + r->model + "'"));
    WhatIfSpec spec;
    spec.isl = r->isl > 0 ? r->isl : (measured.empty() ? 0 : measured.front().isl);
    spec.osl = r->osl > 0 ? r->osl : (measured.empty() ? 0 : measured.front().osl);
    if (spec.isl <= 0 || spec.osl <= 0)
        return makeError(ErrorCode::InvalidInput,
                         "--what-if '" + text.toStdString() +
                             "': isl= and osl= are needed (no measured run to take them from)");
    spec.concurrencies = r->concurrencies;
    if (spec.concurrencies.empty()) { // the measured curves' loads, else powers of two 4 … 256
        std::set<int> loads;
        for (const DeploymentCurve &c : measured)
            for (const Capacity::OperatingPoint &p : c.points)
                if (p.concurrency > 0)
                    loads.insert(p.concurrency);
        spec.concurrencies = loads.empty() ? std::vector<int>{4, 8, 16, 32, 64, 128, 256}
                                           : std::vector<int>(loads.begin(), loads.end());
    }
    const auto pairs = calibrationPairs(r.value(), *model, measured);
    WhatIfBand band = heldOutBandFor(r->gpu);
    if (!pairs.empty()) {
        auto calibrated = calibrateToMeasured(pairs);
        if (!calibrated)
            return calibrated.error();
        band = calibrated.value();
    }
    const auto curve = whatIfCurve(PerformanceModel(*model, *gpu, r->gpus, r->precision), spec);
    const Capacity::Deployment d{r->model + " · what-if · " + precisionName(r->precision),
                                 canonicalGpu(r->gpu), r->gpus, 0, 0};
    Capacity::DeploymentCurve out = Capacity::whatIfCurve(d, spec.isl, spec.osl, simulated(curve), band);
    out.model = r->model;
    return out;
}

} // namespace Throughline::Cli
