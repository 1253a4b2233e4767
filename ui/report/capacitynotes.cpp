#include "ui/report/capacitynotes.h"

#include "ui/report/sentenceforms.h"

namespace Throughline {

namespace {

constexpr const char *kContext = "Throughline::CapacityNotes";

// The sentence forms, written by core/capacity/{planner,prices,slotier,whatif,storedcurves}.cpp. Nested
// captures are a point name or a unit; list captures are "; "-joined tier checks. A more specific form comes
// before the general one it would otherwise fall under.
const SentenceForm kForms[] = {
    {R"re((\S+) not reported by this point)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 not reported by this point"), 0u, 0u},
    {R"re((\S+) (\S+) (ms|tok/s/user) (<=|>=|>|<) (\S+) (ms|tok/s/user) \[95 % CI (\S+)–(\S+), (conclusive|inconclusive)\])re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 %2 %3 %4 %5 %6 [95 % CI %7–%8, %9]"),
     captureBit(3) | captureBit(6) | captureBit(9), 0u},
    {R"re((\S+) (\S+) (ms|tok/s/user) (<=|>=|>|<) (\S+) (ms|tok/s/user))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 %2 %3 %4 %5 %6"), captureBit(3) | captureBit(6), 0u},
    {R"re(tok/s/user)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "tok/s/user"), 0u, 0u},
    {R"re(conclusive)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "conclusive"), 0u, 0u},
    {R"re(inconclusive)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "inconclusive"), 0u, 0u},
    {R"re(concurrency (\d+) of run (\S+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "concurrency %1 of run %2"), 0u, 0u},
    {R"re(concurrency (\d+))re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "concurrency %1"), 0u, 0u},
    {R"re(point (\d+) of run (\S+))re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "point %1 of run %2"),
     0u, 0u},
    {R"re(point (\d+))re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "point %1"), 0u, 0u},
    {R"re(none: the most loaded measured point meets the tier \(more load was not measured\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "none: the most loaded measured point meets the tier (more load was not measured)"),
     0u, 0u},
    {R"re((.+) at the next measured point \(((?:concurrency|point) \d+(?: of run \S+)?), (\S+) tok/s\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 at the next measured point (%2, %3 tok/s)"),
     captureBit(2), captureBit(1)},
    {R"re(no deployment meets this tier \(([^)]*)\); the closest is (.+) at ((?:concurrency|point) \d+(?: of run \S+)?): (.+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "no deployment meets this tier (%1); the closest is %2 at %3: %4"),
     captureBit(3), captureBit(4)},
    {R"re(no deployment meets this tier \(([^)]*)\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "no deployment meets this tier (%1)"), 0u, 0u},
    {R"re((\S+) output tok/s)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 output tok/s"), 0u, 0u},
    {R"re((\S+) concurrent users)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 concurrent users"),
     0u, 0u},
    {R"re((\S+) requests/s)re", QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "%1 requests/s"), 0u, 0u},
    {R"re(no (\S+) price for GPU (.+) from provider (.+) \((\S+) providers for (\S+): (.*)\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "no %1 price for GPU %2 from provider %3 (%4 providers for %5: %6)"),
     0u, 0u},
    {R"re(no (\S+) price for GPU (.+) from the default providers \((.*)\); name one of: (.*))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "no %1 price for GPU %2 from the default providers (%3); name one of: %4"),
     0u, 0u},
    {R"re(no (\S+) price for GPU (.+) \(kinds priced for (\S+): (.*)\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "no %1 price for GPU %2 (kinds priced for %3: %4)"), 0u,
     0u},
    {R"re(price kind (\S+) has no default provider; name one for (\S+): (.*))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "price kind %1 has no default provider; name one for %2: %3"),
     0u, 0u},
    {R"re(power kind measured_dcgm: ((?:concurrency|point) \d+(?: of run \S+)?) of (.+) has no measured energy per token)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "power kind measured_dcgm: %1 of %2 has no measured energy per token"),
     captureBit(1), 0u},
    {R"re(no (\S+) power for GPU (.+) \(not in the power table\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "no %1 power for GPU %2 (not in the power table)"), 0u,
     0u},
    {R"re(no (\S+) power for GPU (.+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "no %1 power for GPU %2"), 0u, 0u},
    {R"re(measured_dcgm power comes from the run's telemetry, not the table)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "measured_dcgm power comes from the run's telemetry, not the table"),
     0u, 0u},
    {R"re(board_tdp utilisation must be in \(0, 1\], got (\S+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "board_tdp utilisation must be in (0, 1], got %1"), 0u,
     0u},
    {R"re(unknown power kind '(.*)' \(all_in, all_in_2026_04, board_tdp, measured_dcgm\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "unknown power kind '%1' (all_in, all_in_2026_04, board_tdp, measured_dcgm)"),
     0u, 0u},
    {R"re(demand rps needs the phase's OSL; (.+) has none \(use tps= instead\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "demand rps needs the phase's OSL; %1 has none (use tps= instead)"),
     0u, 0u},
    {R"re(demand users needs fixed-concurrency points; ((?:concurrency|point) \d+(?: of run \S+)?) of (.+) is not one \(use tps= instead\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "demand users needs fixed-concurrency points; %1 of %2 is not one (use tps= instead)"),
     captureBit(1), 0u},
    {R"re(deployment (.+) has no GPU count)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "deployment %1 has no GPU count"), 0u, 0u},
    {R"re(deployment (.+): (\d+) GPUs is not prefill \+ decode)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "deployment %1: %2 GPUs is not prefill + decode"), 0u,
     0u},
    {R"re(deployment (.+) has no valid measured point)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "deployment %1 has no valid measured point"), 0u, 0u},
    {R"re(nothing to plan: no deployment with measured points)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "nothing to plan: no deployment with measured points"),
     0u, 0u},
    {R"re(headroom must be a percentage ≥ 0)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "headroom must be a percentage ≥ 0"), 0u, 0u},
    {R"re(tier scale factors must be > 0)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "tier scale factors must be > 0"), 0u, 0u},
    {R"re(demand '(.*)': unknown field '(.*)' \(tps=, users= or rps=\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "demand '%1': unknown field '%2' (tps=, users= or rps=)"),
     0u, 0u},
    {R"re(demand '(.*)': field '(.*)' needs a number > 0, got '(.*)')re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "demand '%1': field '%2' needs a number > 0, got '%3'"),
     0u, 0u},
    {R"re(run (\S+) scenario (.+): no GPU type recorded, cannot be priced)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "run %1 scenario %2: no GPU type recorded, cannot be priced"),
     0u, 0u},
    {R"re(tier field (\d+) '(.*)': (.+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "tier field %1 '%2': %3"), captureBit(3), 0u},
    {R"re(empty limit \(expected e\.g\. ttft_p90<=2000\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "empty limit (expected e.g. ttft_p90<=2000)"), 0u, 0u},
    {R"re(expected one '<=' or '>=' \(e\.g\. ttft_p90<=2000, tps_user>=20\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "expected one '<=' or '>=' (e.g. ttft_p90<=2000, tps_user>=20)"),
     0u, 0u},
    {R"re(unknown metric '(.*)' \(ttft_pNN, tpot_pNN, e2e_pNN in ms, or tps_user\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "unknown metric '%1' (ttft_pNN, tpot_pNN, e2e_pNN in ms, or tps_user)"),
     0u, 0u},
    {R"re(tps_user is a lower bound: use tps_user>=N)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "tps_user is a lower bound: use tps_user>=N"), 0u, 0u},
    {R"re(latency limits are upper bounds: use (\S+)<=N)re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "latency limits are upper bounds: use %1<=N"), 0u, 0u},
    {R"re(expected a number > 0 after the operator, got '(.*)')re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "expected a number > 0 after the operator, got '%1'"),
     0u, 0u},
    {R"re(a second limit on (\S+))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "a second limit on %1"), 0u, 0u},
    {R"re(calibrated on (\d+) measured points? \(measured ÷ simulated (\S+)–(\S+), factor (\S+)\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "calibrated on %1 measured point(s) (measured ÷ simulated %2–%3, factor %4)"),
     0u, 0u},
    {R"re(held-out calibration on (.+) vs published throughput \(docs/simulator\.md\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes",
                       "held-out calibration on %1 vs published throughput (docs/simulator.md)"),
     0u, 0u},
    {R"re(calibration vs all published rows \(docs/simulator\.md\))re",
     QT_TRANSLATE_NOOP("Throughline::CapacityNotes", "calibration vs all published rows (docs/simulator.md)"),
     0u, 0u},
};

const SentenceForms &forms()
{
    static const SentenceForms f(kContext, kForms);
    return f;
}

} // namespace

QString CapacityNotes::translate(const std::string &text)
{
    return forms().translate(QString::fromStdString(text));
}

QString CapacityNotes::translate(const QString &text)
{
    return forms().translate(text);
}

bool CapacityNotes::known(const std::string &text)
{
    return forms().known(QString::fromStdString(text));
}

} // namespace Throughline
