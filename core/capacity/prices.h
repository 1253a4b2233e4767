#pragma once
// GPU prices and power as data (resources/prices, facts copied from the shared reference with their sources).
// A price is keyed by (GPU, kind, provider); each kind has a named default provider list. Kinds are never
// mixed: every lookup names one kind and the answer carries it, with provider and date. Pure data; any
// thread.

#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline::Capacity {

struct GpuPrice {
    std::string gpu;      // canonical name (H100, H200, B200, GB200, GB300)
    std::string kind;     // on_demand, rental_3yr, tco_owning_hyperscaler, tco_owning_neocloud
    std::string provider; // short key (Nebius, Lambda, SemiAnalysis, …)
    double usdPerGpuHour = 0;
    std::string dateSeen;
    std::string providerDetail; // the source's own description of the offer
    std::string source;         // URL or repository path @ commit
};

struct PriceDefault {
    std::string kind;
    std::vector<std::string> providers; // preference order: the first that prices the GPU is used
};

class PriceTable
{
public:
    // The shipped table (":/prices/gpu_prices.csv" + ":/prices/price_defaults.csv").
    static Result<PriceTable> builtIn();
    // A user's own table in the same format (override per campaign); defaults from a second file, or none.
    static Result<PriceTable> fromFiles(const std::string &pricesPath, const std::string &defaultsPath = {});

    // provider empty = the kind's default. Errors name the GPU, kind and provider asked for and list what
    // the table has instead.
    Result<GpuPrice> lookup(const std::string &gpu, const std::string &kind,
                            const std::string &provider = {}) const;
    std::vector<std::string> kinds() const;
    const std::vector<GpuPrice> &prices() const { return m_prices; }
    const std::vector<PriceDefault> &defaults() const { return m_defaults; }

private:
    std::vector<GpuPrice> m_prices;
    std::vector<PriceDefault> m_defaults;
};

// How the energy figure was obtained; the answer always says which.
enum class PowerKind {
    AllIn,        // all-in kW per GPU (chip + share of host/NICs), SemiAnalysis TCO model, later value
    AllIn2026_04, // the same model's 2026-04 value
    BoardTdp,     // board TDP × a stated utilisation (GPU only)
    MeasuredDcgm  // energy per token measured in the run (DCGM, GPU only); not a table lookup
};
std::string powerKindName(PowerKind kind);
Result<PowerKind> parsePowerKind(const std::string &name);

struct GpuPower {
    std::string gpu;
    PowerKind kind = PowerKind::AllIn;
    double kwPerGpu = 0;    // what one GPU draws for the answer's energy figure
    double utilisation = 1; // BoardTdp only: the stated fraction of TDP
    std::string source;
};

class PowerTable
{
public:
    static Result<PowerTable> builtIn(); // ":/prices/gpu_power.csv"
    static Result<PowerTable> fromFile(const std::string &path);
    // utilisation is used (and must be in (0, 1]) for BoardTdp only. MeasuredDcgm is not in the table.
    Result<GpuPower> lookup(const std::string &gpu, PowerKind kind, double utilisation = 1.0) const;

private:
    struct Row {
        std::string gpu;
        double tdpW = 0, allInKw2026_04 = 0, allInKwLater = 0;
        std::string tdpSource, allInSource;
    };
    std::vector<Row> m_rows;
};

// H100-SXM → H100, h200 → H200: the names the reference tables join on.
std::string canonicalGpu(const std::string &name);

} // namespace Throughline::Capacity
