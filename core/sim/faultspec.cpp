#include "core/sim/faultspec.h"

#include <cstdio>
#include <cstdlib>

namespace Throughline {

const char *faultName(FaultKind k)
{
    switch (k) {
    case FaultKind::None:
        return "none";
    case FaultKind::Http500:
        return "http500";
    case FaultKind::Http503:
        return "http503";
    case FaultKind::Http429:
        return "http429";
    case FaultKind::Disconnect:
        return "disconnect";
    case FaultKind::ErrorEvent:
        return "error_event";
    case FaultKind::Stall:
        return "stall";
    case FaultKind::Malformed:
        return "malformed";
    case FaultKind::SlowFirstByte:
        return "slow_first_byte";
    }
    return "none";
}

bool FaultSpec::any() const
{
    return http500 + http503 + http429 + disconnect + errorEvent + stall + malformed + slowFirstByte > 0;
}

FaultKind FaultSpec::pick(double u) const
{
    const std::pair<double, FaultKind> table[] = {
        {http500, FaultKind::Http500},       {http503, FaultKind::Http503},
        {http429, FaultKind::Http429},       {disconnect, FaultKind::Disconnect},
        {errorEvent, FaultKind::ErrorEvent}, {stall, FaultKind::Stall},
        {malformed, FaultKind::Malformed},   {slowFirstByte, FaultKind::SlowFirstByte}};
    double acc = 0;
    for (const auto &[p, k] : table) {
        acc += p;
        if (u < acc)
            return k;
    }
    return FaultKind::None;
}

std::string FaultSpec::toString() const
{
    std::string out;
    char buf[64];
    auto add = [&](const char *name, double p, double s = -1) {
        if (p <= 0)
            return;
        if (s >= 0)
            std::snprintf(buf, sizeof buf, "%s=%g:%g", name, p, s);
        else
            std::snprintf(buf, sizeof buf, "%s=%g", name, p);
        if (!out.empty())
            out += ',';
        out += buf;
    };
    add("http500", http500);
    add("http503", http503);
    add("http429", http429);
    add("disconnect", disconnect);
    add("error_event", errorEvent);
    add("stall", stall, stallS);
    add("malformed", malformed);
    add("slow_first_byte", slowFirstByte, slowFirstByteS);
    return out;
}

Result<FaultSpec> FaultSpec::parse(std::string_view text)
{
    FaultSpec f;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(',', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string item(text.substr(pos, end - pos));
        pos = end + 1;
        if (item.empty())
            continue;
        const size_t eq = item.find('=');
        if (eq == std::string::npos)
            return makeError(ErrorCode::InvalidInput, "faults: \"" + item + "\" is not name=probability");
        const std::string name = item.substr(0, eq);
        std::string value = item.substr(eq + 1);
        double seconds = -1;
        if (const size_t colon = value.find(':'); colon != std::string::npos) {
            char *e = nullptr;
            const std::string s = value.substr(colon + 1);
            seconds = std::strtod(s.c_str(), &e);
            if (s.empty() || *e != '\0' || seconds < 0)
                return makeError(ErrorCode::InvalidInput, "faults: bad seconds in \"" + item + "\"");
            value = value.substr(0, colon);
        }
        char *e = nullptr;
        const double p = std::strtod(value.c_str(), &e);
        if (value.empty() || *e != '\0' || p < 0 || p > 1)
            return makeError(ErrorCode::InvalidInput, "faults: probability of \"" + name +
                                                          "\" must be a number in [0, 1], got \"" + value +
                                                          "\"");
        if (name == "http500")
            f.http500 = p;
        else if (name == "http503")
            f.http503 = p;
        else if (name == "http429")
            f.http429 = p;
        else if (name == "disconnect")
            f.disconnect = p;
        else if (name == "error_event")
            f.errorEvent = p;
        else if (name == "stall") {
            f.stall = p;
            if (seconds >= 0)
                f.stallS = seconds;
        } else if (name == "malformed")
            f.malformed = p;
        else if (name == "slow_first_byte") {
            f.slowFirstByte = p;
            if (seconds >= 0)
                f.slowFirstByteS = seconds;
        } else
            return makeError(
                ErrorCode::InvalidInput,
                "faults: unknown fault \"" + name +
                    "\" (known: http500, http503, http429, disconnect, error_event, stall, malformed, "
                    "slow_first_byte)");
    }
    const double total = f.http500 + f.http503 + f.http429 + f.disconnect + f.errorEvent + f.stall +
                         f.malformed + f.slowFirstByte;
    if (total > 1.0 + 1e-9)
        return makeError(ErrorCode::InvalidInput, "faults: probabilities add up to more than 1");
    return f;
}

} // namespace Throughline
