#include "core/results/junitxml.h"

#include "core/results/resultscsv.h"

#include <cmath>
#include <fstream>

namespace Throughline {

namespace {

std::string xmlEscape(const std::string &s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            // XML 1.0 forbids most control characters; drop them.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
                break;
            out += c;
        }
    }
    return out;
}

std::string checkLine(const VerdictCheck &c)
{
    std::string s = std::string(checkOutcomeKey(c.outcome)) + ": " + c.metric + " " + c.stat + " = " +
                    (std::isnan(c.value) ? std::string("n/a") : csvNumber(c.value)) + " " +
                    std::string(comparatorKey(c.cmp)) + " " + csvNumber(c.target) + " (" +
                    std::string(targetKindKey(c.kind));
    if (!std::isnan(c.marginPct))
        s += ", margin " + csvNumber(std::round(c.marginPct * 10) / 10) + " %";
    if (c.point >= 0)
        s += ", point " + std::to_string(c.point);
    s += ")";
    return s;
}

} // namespace

std::string junitXml(const RunResults &run)
{
    int failures = 0, errors = 0, skipped = 0;
    std::string cases;
    for (const ScenarioResult &s : run.scenarios) {
        std::string body;
        std::string out =
            "operating point: " +
            (s.verdict.operatingPoint >= 0 ? std::to_string(s.verdict.operatingPoint) : std::string("none")) +
            "\n";
        std::string failed;
        for (const VerdictCheck &c : s.verdict.checks) {
            out += checkLine(c) + "\n";
            if (c.outcome == VerdictCheck::Outcome::Fail)
                failed += checkLine(c) + "\n";
        }
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            std::string flags;
            for (const auto &f : s.points[i].validity.flags)
                flags += (flags.empty() ? "" : ",") + f;
            out += "point " + std::to_string(i) + ": " +
                   (s.points[i].validity.valid ? "valid" : "invalid (" + flags + ")") + "\n";
        }
        switch (s.verdict.status) {
        case Verdict::Status::Fail:
            ++failures;
            body += "      <failure type=\"fail\" message=\"target not met\">" + xmlEscape(failed) +
                    "</failure>\n";
            break;
        case Verdict::Status::Invalid:
            ++errors;
            body += "      <error type=\"invalid\" message=\"no valid load point\"/>\n";
            break;
        case Verdict::Status::NoTarget:
            ++skipped;
            body += "      <skipped message=\"no target judged\"/>\n";
            break;
        case Verdict::Status::Inconclusive:
            ++skipped;
            body += "      <skipped message=\"inconclusive: an interval straddles its target\"/>\n";
            break;
        case Verdict::Status::Pass:
            break;
        }
        body += "      <system-out>" + xmlEscape(out) + "</system-out>\n";
        cases += "    <testcase classname=\"throughline." + xmlEscape(run.campaignName) + "\" name=\"" +
                 xmlEscape(s.id) + "\">\n" + body + "    </testcase>\n";
    }
    const std::string counts = " tests=\"" + std::to_string(run.scenarios.size()) + "\" failures=\"" +
                               std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                               "\" skipped=\"" + std::to_string(skipped) + "\"";
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += "<testsuites name=\"throughline\"" + counts + ">\n";
    xml += "  <testsuite name=\"" + xmlEscape(run.campaignName) + "\"" + counts + " timestamp=\"" +
           xmlEscape(run.startedUtc) + "\">\n";
    xml += "    <properties>\n      <property name=\"run_id\" value=\"" + xmlEscape(run.runId) +
           "\"/>\n      <property name=\"simulated\" value=\"" + (run.simulated ? "true" : "false") +
           "\"/>\n    </properties>\n";
    xml += cases;
    xml += "  </testsuite>\n</testsuites>\n";
    return xml;
}

Status writeJUnitXml(const RunResults &run, const std::string &path)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f)
        return makeError(ErrorCode::Io, path + ": cannot write");
    f << junitXml(run);
    f.flush();
    if (!f)
        return makeError(ErrorCode::Io, path + ": write failed");
    return Ok{};
}

} // namespace Throughline
