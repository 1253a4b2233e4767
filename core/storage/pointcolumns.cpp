#include "core/storage/pointcolumns.h"

#include "core/storage/sqlitedb.h"

namespace Throughline {

namespace {

std::optional<double> number(const nlohmann::json &j)
{
    if (j.is_number())
        return j.get<double>();
    return std::nullopt; // "n/a (n=…)", null, missing
}

} // namespace

PointColumns PointColumns::from(const nlohmann::json &point)
{
    PointColumns c;
    if (!point.is_object())
        return c;
    const auto metrics = point.find("metrics");
    if (metrics != point.end() && metrics->is_object()) {
        if (auto it = metrics->find("output_tps_per_gpu"); it != metrics->end())
            c.outputTpsPerGpu = number(*it);
        if (auto it = metrics->find("ttft_ms");
            it != metrics->end() && it->is_object() && it->contains("p90"))
            c.ttftMsP90 = number((*it)["p90"]);
        if (auto it = metrics->find("tpot_ms");
            it != metrics->end() && it->is_object() && it->contains("p90"))
            c.tpotMsP90 = number((*it)["p90"]);
    }
    const auto validity = point.find("validity");
    if (validity != point.end() && validity->is_object()) {
        if (auto it = validity->find("valid"); it != validity->end() && it->is_boolean())
            c.valid = it->get<bool>();
        if (auto it = validity->find("flags"); it != validity->end() && it->is_array()) {
            for (const auto &f : *it) {
                if (!f.is_string())
                    continue;
                if (!c.flags.empty())
                    c.flags += ',';
                c.flags += f.get<std::string>();
            }
        }
    }
    return c;
}

void PointColumns::bindTo(SqliteStmt &st, int first) const
{
    auto bindOpt = [&](int i, const std::optional<double> &v) {
        if (v)
            st.bind(i, *v);
        else
            st.bindNull(i);
    };
    bindOpt(first, outputTpsPerGpu);
    bindOpt(first + 1, ttftMsP90);
    bindOpt(first + 2, tpotMsP90);
    if (valid)
        st.bind(first + 3, *valid ? 1 : 0);
    else
        st.bindNull(first + 3);
    st.bind(first + 4, flags);
}

} // namespace Throughline
