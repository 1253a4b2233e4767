// Prices and power as data: the shipped tables carry every row of the shared reference, lookups by
// (GPU, kind, provider) and by a kind's default, clear errors for a missing price (naming GPU and kind), and
// power by kind (all-in, board TDP × utilisation).
#include "core/capacity/prices.h"
#include "core/util/csvreader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace Throughline;
using namespace Throughline::Capacity;

namespace {

std::string writeFile(const QTemporaryDir &dir, const char *name, const std::string &text)
{
    const std::string path = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}

} // namespace

class TestPrices : public QObject
{
    Q_OBJECT
private slots:
    void builtInCarriesTheReferenceTable()
    {
        auto table = PriceTable::builtIn();
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
        auto ref = CsvReader::readFile(THROUGHLINE_SHARED_DIR "/data/reference/gpu_prices.csv");
        if (!ref.ok())
            QSKIP("shared reference table not present next to this checkout");
        const CsvTable &t = ref.value();
        QCOMPARE(table->prices().size(), t.rows.size());
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            const GpuPrice &p = table->prices()[i];
            QCOMPARE(p.gpu, t.rows[i].text(t.column("gpu")));
            QCOMPARE(p.kind, t.rows[i].text(t.column("price_type")));
            QCOMPARE(p.usdPerGpuHour, std::stod(t.rows[i].text(t.column("usd_per_gpu_hour"))));
            QCOMPARE(p.dateSeen, t.rows[i].text(t.column("date_seen")));
            QCOMPARE(p.providerDetail, t.rows[i].text(t.column("provider_or_source")));
            QVERIFY(!p.source.empty());
        }
        const auto kinds = table->kinds();
        QCOMPARE(kinds.size(), std::size_t(4));
        for (const auto &k : kinds) {
            bool hasDefault = false;
            for (const auto &d : table->defaults())
                hasDefault = hasDefault || d.kind == k;
            QVERIFY2(hasDefault, k.c_str());
        }
    }

    void lookupByProviderAndDefault()
    {
        auto table = PriceTable::builtIn();
        QVERIFY(table.ok());
        auto lambda = table->lookup("H100-SXM", "on_demand", "lambda");
        QVERIFY(lambda.ok());
        QCOMPARE(lambda->usdPerGpuHour, 3.99);
        QCOMPARE(lambda->provider, std::string("Lambda"));
        QCOMPARE(lambda->gpu, std::string("H100"));
        // Default on_demand order Nebius;Lambda;Spheron: Nebius prices B200 (5.50), only Spheron GB200
        // (4.54).
        auto b200 = table->lookup("B200", "on_demand");
        QVERIFY(b200.ok());
        QCOMPARE(b200->provider, std::string("Nebius"));
        QCOMPARE(b200->usdPerGpuHour, 5.50);
        auto gb200 = table->lookup("gb200", "on_demand");
        QVERIFY(gb200.ok());
        QCOMPARE(gb200->provider, std::string("Spheron"));
        QCOMPARE(gb200->usdPerGpuHour, 4.54);
        QCOMPARE(gb200->dateSeen, std::string("2026-03-17"));
        auto tco = table->lookup("GB200", "tco_owning_hyperscaler");
        QVERIFY(tco.ok());
        QCOMPARE(tco->usdPerGpuHour, 2.21);
        QCOMPARE(tco->kind, std::string("tco_owning_hyperscaler"));
    }

    void missingPriceNamesGpuAndKind()
    {
        auto table = PriceTable::builtIn();
        QVERIFY(table.ok());
        // GB300 has TCO tiers only: no on-demand price.
        auto none = table->lookup("GB300", "on_demand");
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, ErrorCode::NotFound);
        QVERIFY2(none.error().message.find("on_demand") != std::string::npos, none.error().message.c_str());
        QVERIFY2(none.error().message.find("GB300") != std::string::npos, none.error().message.c_str());
        QVERIFY2(none.error().message.find("tco_owning_hyperscaler") != std::string::npos,
                 none.error().message.c_str());
        auto provider = table->lookup("GB200", "on_demand", "Lambda");
        QVERIFY(!provider.ok());
        QVERIFY(provider.error().message.find("Lambda") != std::string::npos);
        QVERIFY(provider.error().message.find("Spheron") != std::string::npos);
        auto unknown = table->lookup("MI300X", "rental_3yr");
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error().message.find("MI300X") != std::string::npos);
        QVERIFY(unknown.error().message.find("rental_3yr") != std::string::npos);
    }

    void userTableOverridesAndReportsBadFields()
    {
        QTemporaryDir dir;
        const std::string good = writeFile(dir, "p.csv",
                                           "gpu,kind,provider,usd_per_gpu_hour,date_seen,source\n"
                                           "H100,on_demand,Ours,2.10,2026-11-30,our contract\n"
                                           "H100,on_demand,Theirs,2.50,2026-11-30,quote\n");
        const std::string defaults = writeFile(dir, "d.csv", "kind,providers\non_demand,Theirs;Ours\n");
        auto t = PriceTable::fromFiles(good, defaults);
        QVERIFY(t.ok());
        QCOMPARE(t->lookup("H100", "on_demand")->usdPerGpuHour, 2.50);
        QCOMPARE(t->lookup("H100", "on_demand", "Ours")->usdPerGpuHour, 2.10);
        // Without defaults and with two providers the kind needs a named provider.
        auto noDefault = PriceTable::fromFiles(good);
        QVERIFY(noDefault.ok());
        QVERIFY(!noDefault->lookup("H100", "on_demand").ok());

        const std::string bad = writeFile(dir, "bad.csv",
                                          "gpu,kind,provider,usd_per_gpu_hour,date_seen,source\n"
                                          "H100,on_demand,Ours,two,2026-11-30,x\n");
        auto b = PriceTable::fromFiles(bad);
        QVERIFY(!b.ok());
        QVERIFY2(b.error().message.find("bad.csv:2:") != std::string::npos, b.error().message.c_str());
        QVERIFY(b.error().message.find("usd_per_gpu_hour") != std::string::npos);
        const std::string missing = writeFile(dir, "m.csv", "gpu,kind,usd_per_gpu_hour\nH100,x,1\n");
        auto m = PriceTable::fromFiles(missing);
        QVERIFY(!m.ok());
        QVERIFY(m.error().message.find("missing column 'provider'") != std::string::npos);
    }

    void powerByKind()
    {
        auto power = PowerTable::builtIn();
        QVERIFY2(power.ok(), power.ok() ? "" : power.error().message.c_str());
        auto allIn = power->lookup("GB200", PowerKind::AllIn);
        QVERIFY(allIn.ok());
        QCOMPARE(allIn->kwPerGpu, 1.87);
        QCOMPARE(power->lookup("GB200", PowerKind::AllIn2026_04)->kwPerGpu, 2.10);
        // Board power × stated utilisation: 1200 W × 0.8 = 0.96 kW.
        auto tdp = power->lookup("GB200", PowerKind::BoardTdp, 0.8);
        QVERIFY(tdp.ok());
        QVERIFY(qAbs(tdp->kwPerGpu - 0.96) < 1e-12);
        QCOMPARE(tdp->utilisation, 0.8);
        QVERIFY(!power->lookup("GB200", PowerKind::BoardTdp, 1.5).ok());
        QVERIFY(!power->lookup("GB200", PowerKind::MeasuredDcgm).ok());
        auto none = power->lookup("MI300X", PowerKind::AllIn);
        QVERIFY(!none.ok());
        QVERIFY(none.error().message.find("MI300X") != std::string::npos);
        QCOMPARE(powerKindName(parsePowerKind("board_tdp").value()), std::string("board_tdp"));
        QVERIFY(!parsePowerKind("solar").ok());
    }
};

QTEST_GUILESS_MAIN(TestPrices)
#include "tst_prices.moc"
