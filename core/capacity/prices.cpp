#include "core/capacity/prices.h"

#include "core/util/csvreader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace Throughline::Capacity {

namespace {

std::string upper(std::string s)
{
    for (char &c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool sameText(const std::string &a, const std::string &b)
{
    return upper(a) == upper(b);
}

std::string joined(const std::vector<std::string> &items)
{
    std::string out;
    for (const auto &s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "none" : out;
}

Error fieldError(const CsvTable &t, const CsvRow &r, const char *column, const std::string &message)
{
    const int c = t.column(column);
    const int col = c >= 0 && c < int(r.fields.size()) ? r.fields[size_t(c)].column : 1;
    return makeError(ErrorCode::InvalidInput, t.fileName + ":" + std::to_string(r.line) + ":" +
                                                  std::to_string(col) + ": column '" + column +
                                                  "': " + message);
}

Status requireColumns(const CsvTable &t, std::initializer_list<const char *> names)
{
    for (const char *n : names)
        if (t.column(n) < 0)
            return makeError(ErrorCode::InvalidInput, t.fileName + ":1:1: missing column '" + n + "'");
    return Ok{};
}

// Empty → `fallback`; otherwise the whole field must be a finite number ≥ 0.
Result<double> number(const CsvTable &t, const CsvRow &r, const char *column, double fallback)
{
    const std::string &s = r.text(t.column(column));
    if (s.empty())
        return fallback;
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v) || v < 0)
        return fieldError(t, r, column, "expected a number ≥ 0, got '" + s + "'");
    return v;
}

std::vector<std::string> splitProviders(const std::string &s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s + ";") {
        if (c == ';') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c)) || !cur.empty()) {
            cur += c;
        }
    }
    return out;
}

Status loadPrices(const CsvTable &t, std::vector<GpuPrice> &out)
{
    if (auto s = requireColumns(t, {"gpu", "kind", "provider", "usd_per_gpu_hour", "date_seen", "source"});
        !s)
        return s.error();
    for (const auto &r : t.rows) {
        GpuPrice p;
        p.gpu = canonicalGpu(r.text(t.column("gpu")));
        p.kind = r.text(t.column("kind"));
        p.provider = r.text(t.column("provider"));
        if (p.gpu.empty())
            return fieldError(t, r, "gpu", "empty GPU name");
        if (p.kind.empty())
            return fieldError(t, r, "kind", "empty price kind");
        if (p.provider.empty())
            return fieldError(t, r, "provider", "empty provider");
        auto usd = number(t, r, "usd_per_gpu_hour", -1);
        if (!usd)
            return usd.error();
        if (usd.value() <= 0)
            return fieldError(t, r, "usd_per_gpu_hour", "a price must be > 0");
        p.usdPerGpuHour = usd.value();
        p.dateSeen = r.text(t.column("date_seen"));
        p.source = r.text(t.column("source"));
        if (t.column("provider_detail") >= 0)
            p.providerDetail = r.text(t.column("provider_detail"));
        for (const auto &q : out)
            if (q.gpu == p.gpu && q.kind == p.kind && sameText(q.provider, p.provider))
                return fieldError(t, r, "provider",
                                  "a second " + p.kind + " price for " + p.gpu + " from " + p.provider);
        out.push_back(std::move(p));
    }
    return Ok{};
}

Status loadDefaults(const CsvTable &t, std::vector<PriceDefault> &out)
{
    if (auto s = requireColumns(t, {"kind", "providers"}); !s)
        return s.error();
    for (const auto &r : t.rows) {
        PriceDefault d{r.text(t.column("kind")), splitProviders(r.text(t.column("providers")))};
        if (d.kind.empty())
            return fieldError(t, r, "kind", "empty price kind");
        if (d.providers.empty())
            return fieldError(t, r, "providers", "no provider named for " + d.kind);
        out.push_back(std::move(d));
    }
    return Ok{};
}

} // namespace

std::string canonicalGpu(const std::string &name)
{
    std::string s = upper(name);
    for (const char *suffix : {"-SXM5", "-SXM6", "-SXM"})
        if (const std::string x = suffix;
            s.size() > x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0)
            s.resize(s.size() - x.size());
    return s;
}

Result<PriceTable> PriceTable::builtIn()
{
    return fromFiles(":/prices/gpu_prices.csv", ":/prices/price_defaults.csv");
}

Result<PriceTable> PriceTable::fromFiles(const std::string &pricesPath, const std::string &defaultsPath)
{
    PriceTable table;
    auto prices = CsvReader::readFile(pricesPath);
    if (!prices)
        return prices.error();
    if (auto s = loadPrices(prices.value(), table.m_prices); !s)
        return s.error();
    if (!defaultsPath.empty()) {
        auto defaults = CsvReader::readFile(defaultsPath);
        if (!defaults)
            return defaults.error();
        if (auto s = loadDefaults(defaults.value(), table.m_defaults); !s)
            return s.error();
    }
    return table;
}

std::vector<std::string> PriceTable::kinds() const
{
    std::vector<std::string> out;
    for (const auto &p : m_prices)
        if (std::find(out.begin(), out.end(), p.kind) == out.end())
            out.push_back(p.kind);
    return out;
}

Result<GpuPrice> PriceTable::lookup(const std::string &gpuName, const std::string &kind,
                                    const std::string &provider) const
{
    const std::string gpu = canonicalGpu(gpuName);
    std::vector<std::string> providersOfKind, kindsOfGpu;
    for (const auto &p : m_prices) {
        if (p.gpu == gpu && p.kind == kind)
            providersOfKind.push_back(p.provider);
        if (p.gpu == gpu && std::find(kindsOfGpu.begin(), kindsOfGpu.end(), p.kind) == kindsOfGpu.end())
            kindsOfGpu.push_back(p.kind);
    }
    auto find = [&](const std::string &prov) -> const GpuPrice * {
        for (const auto &p : m_prices)
            if (p.gpu == gpu && p.kind == kind && sameText(p.provider, prov))
                return &p;
        return nullptr;
    };
    if (providersOfKind.empty())
        return makeError(ErrorCode::NotFound, "no " + kind + " price for GPU " + gpuName +
                                                  " (kinds priced for " + gpu + ": " + joined(kindsOfGpu) +
                                                  ")");
    if (!provider.empty()) {
        if (const GpuPrice *p = find(provider))
            return *p;
        return makeError(ErrorCode::NotFound, "no " + kind + " price for GPU " + gpuName + " from provider " +
                                                  provider + " (" + kind + " providers for " + gpu + ": " +
                                                  joined(providersOfKind) + ")");
    }
    for (const auto &d : m_defaults) {
        if (d.kind != kind)
            continue;
        for (const auto &prov : d.providers)
            if (const GpuPrice *p = find(prov))
                return *p;
        return makeError(ErrorCode::NotFound, "no " + kind + " price for GPU " + gpuName +
                                                  " from the default providers (" + joined(d.providers) +
                                                  "); name one of: " + joined(providersOfKind));
    }
    if (providersOfKind.size() == 1)
        return *find(providersOfKind.front());
    return makeError(ErrorCode::InvalidInput, "price kind " + kind +
                                                  " has no default provider; name one for " + gpu + ": " +
                                                  joined(providersOfKind));
}

std::string powerKindName(PowerKind kind)
{
    switch (kind) {
    case PowerKind::AllIn:
        return "all_in";
    case PowerKind::AllIn2026_04:
        return "all_in_2026_04";
    case PowerKind::BoardTdp:
        return "board_tdp";
    case PowerKind::MeasuredDcgm:
        return "measured_dcgm";
    }
    return "all_in";
}

Result<PowerKind> parsePowerKind(const std::string &name)
{
    for (PowerKind k :
         {PowerKind::AllIn, PowerKind::AllIn2026_04, PowerKind::BoardTdp, PowerKind::MeasuredDcgm})
        if (powerKindName(k) == name)
            return k;
    return makeError(ErrorCode::InvalidInput,
                     "unknown power kind '" + name + "' (all_in, all_in_2026_04, board_tdp, measured_dcgm)");
}

Result<PowerTable> PowerTable::builtIn()
{
    return fromFile(":/prices/gpu_power.csv");
}

Result<PowerTable> PowerTable::fromFile(const std::string &path)
{
    auto csv = CsvReader::readFile(path);
    if (!csv)
        return csv.error();
    const CsvTable &t = csv.value();
    if (auto s = requireColumns(t, {"gpu", "tdp_w", "all_in_kw_per_gpu_2026_04", "all_in_kw_per_gpu_later"});
        !s)
        return s.error();
    PowerTable table;
    for (const auto &r : t.rows) {
        Row row;
        row.gpu = canonicalGpu(r.text(t.column("gpu")));
        if (row.gpu.empty())
            return fieldError(t, r, "gpu", "empty GPU name");
        auto tdp = number(t, r, "tdp_w", 0);
        auto early = number(t, r, "all_in_kw_per_gpu_2026_04", 0);
        auto later = number(t, r, "all_in_kw_per_gpu_later", 0);
        for (auto *v : {&tdp, &early, &later})
            if (!*v)
                return v->error();
        row.tdpW = tdp.value();
        row.allInKw2026_04 = early.value();
        row.allInKwLater = later.value();
        if (t.column("tdp_source") >= 0)
            row.tdpSource = r.text(t.column("tdp_source"));
        if (t.column("all_in_source") >= 0)
            row.allInSource = r.text(t.column("all_in_source"));
        table.m_rows.push_back(std::move(row));
    }
    return table;
}

Result<GpuPower> PowerTable::lookup(const std::string &gpuName, PowerKind kind, double utilisation) const
{
    const std::string gpu = canonicalGpu(gpuName);
    if (kind == PowerKind::MeasuredDcgm)
        return makeError(ErrorCode::InvalidInput,
                         "measured_dcgm power comes from the run's telemetry, not the table");
    if (kind == PowerKind::BoardTdp && !(utilisation > 0 && utilisation <= 1))
        return makeError(ErrorCode::InvalidInput,
                         "board_tdp utilisation must be in (0, 1], got " + std::to_string(utilisation));
    for (const auto &r : m_rows) {
        if (r.gpu != gpu)
            continue;
        GpuPower p{gpu, kind, 0, 1, r.allInSource};
        if (kind == PowerKind::AllIn)
            p.kwPerGpu = r.allInKwLater;
        else if (kind == PowerKind::AllIn2026_04)
            p.kwPerGpu = r.allInKw2026_04;
        else {
            p.kwPerGpu = r.tdpW / 1000.0 * utilisation;
            p.utilisation = utilisation;
            p.source = r.tdpSource;
        }
        if (p.kwPerGpu <= 0)
            return makeError(ErrorCode::NotFound, "no " + powerKindName(kind) + " power for GPU " + gpuName);
        return p;
    }
    return makeError(ErrorCode::NotFound,
                     "no " + powerKindName(kind) + " power for GPU " + gpuName + " (not in the power table)");
}

} // namespace Throughline::Capacity
