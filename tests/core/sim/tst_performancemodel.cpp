// Unit tests of the analytic performance model and its calibration (no server, no event loop).
#include "core/campaign/catalog.h"
#include "core/sim/calibration.h"
#include "core/sim/performancemodel.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace Throughline;

class TestPerformanceModel : public QObject
{
    Q_OBJECT

private:
    static PerformanceModel make(const char *model, const char *gpu, int n, Precision p)
    {
        const auto &cat = Catalog::builtin();
        const ModelSpec *m = cat.model(model);
        const GpuSpec *g = cat.gpu(gpu);
        if (!m || !g)
            qFatal("catalog lacks %s or %s", model, gpu);
        return PerformanceModel(*m, *g, n, p);
    }

private slots:
    void precisionParsing()
    {
        QCOMPARE(*parsePrecision("fp8"), Precision::Fp8);
        QCOMPARE(*parsePrecision("NVFP4"), Precision::Fp4);
        QCOMPARE(*parsePrecision("BF16"), Precision::Bf16);
        auto bad = parsePrecision("int3");
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("int3") != std::string::npos);
    }

    void tensorRateByPrecision()
    {
        // FP4 deployment on Hopper runs at the FP8 rate.
        QCOMPARE(make("Llama-3.3-70B-Instruct", "H200", 1, Precision::Fp4).tensorFlopsPerGpu(), 1979e12);
        QCOMPARE(make("Llama-3.3-70B-Instruct", "B200", 1, Precision::Fp4).tensorFlopsPerGpu(), 9000e12);
        QCOMPARE(make("Llama-3.3-70B-Instruct", "H100", 1, Precision::Bf16).tensorFlopsPerGpu(), 989e12);
        // gpt-oss (MXFP4 checkpoint) on Hopper: BF16 rate even when the deployment says FP8.
        QCOMPARE(make("gpt-oss-120b", "H200", 1, Precision::Fp8).tensorFlopsPerGpu(), 989e12);
        QCOMPARE(make("gpt-oss-120b", "B200", 1, Precision::Fp4).tensorFlopsPerGpu(), 9000e12);
    }

    void kvAndAttention()
    {
        auto ds = make("DeepSeek-R1", "H200", 8, Precision::Fp8);
        QCOMPARE(ds.kvBytesPerToken(), 35136.0);
        QCOMPARE(ds.attentionFlopsPerCtxToken(), 61.0 * 2 * 128 * (576 + 512)); // MLA
        auto llama = make("Llama-3.3-70B-Instruct", "H100", 2, Precision::Bf16);
        QCOMPARE(llama.kvBytesPerToken(), 163840.0 * 2);
        QCOMPARE(llama.attentionFlopsPerCtxToken(), 4.0 * 80 * 64 * 128);
        auto oss = make("gpt-oss-120b", "H200", 1, Precision::Fp8);
        QCOMPARE(oss.kvBytesPerToken(), 18432.0);
        QCOMPARE(oss.attentionFlopsPerCtxToken(), 4.0 * 18 * 64 * 64); // full-attention layers only
    }

    void moeWeightReads()
    {
        auto ds = make("DeepSeek-R1", "B200", 4, Precision::Fp4);
        const double f = ds.routedShare();
        // active = total·(1−f) + total·f·k/E
        QVERIFY(std::fabs(671 * (1 - f) + 671 * f * 8.0 / 256 - 37) < 1e-9);
        const double w = ds.weightBytes();
        QVERIFY(std::fabs(ds.weightReadBytes(1) - w * ((1 - f) + f * 8.0 / 256)) < 1.0);
        QVERIFY(ds.weightReadBytes(4096) > 0.999 * w); // all experts touched
        QVERIFY(ds.weightReadBytes(1) < 0.1 * w);
        QCOMPARE(ds.effectiveActiveParams(), ds.constants().moePenalty * 37e9);
        auto llama = make("Llama-3.3-70B-Instruct", "B200", 1, Precision::Fp4);
        QCOMPARE(llama.routedShare(), 0.0);
        QCOMPARE(llama.weightReadBytes(100), llama.weightBytes());
    }

    void batchAndTiming()
    {
        auto m = make("Llama-3.3-70B-Instruct", "H200", 2, Precision::Fp8);
        const double cap = (2 * 141e9 * 0.9 - 68.0 * 1024 * 1024 * 1024) / 163840.0;
        QCOMPARE(m.kvCapacityTokens(), cap);
        QCOMPARE(m.batchSize(1000, 1000), int(std::floor(cap / 2000)));
        QCOMPARE(m.batchSize(1000, 1000, 7), 7);
        QCOMPARE(m.batchSize(10, 10), m.maxSeqs());
        // Chunked prefill adds up to the whole prefill.
        const double whole = m.prefillS(4000);
        const double parts =
            m.prefillChunkS(0, 1000) + m.prefillChunkS(1000, 2000) + m.prefillChunkS(3000, 1000);
        QVERIFY(std::fabs(whole - parts) < 1e-12 * whole + 1e-15);
        // Saturated throughput formula.
        const auto op = m.operatingPoint(1000, 1000);
        const double expect = op.batch * 1000.0 / (op.batch * op.prefillS + 1000 * op.decodeStepS) / 2;
        QVERIFY(std::fabs(op.outputTokPerSPerGpu - expect) < 1e-9 * expect);
        QCOMPARE(op.decodeStepS, std::max(op.memTimeS, op.computeTimeS) + 0.006 + 9e-6 * op.batch / 2);
    }

    void calibrationAgainstPublished()
    {
        const auto &cat = Catalog::builtin();
        QVERIFY(cat.perfOverview().size() >= 30);
        const auto stats = Calibration::evaluate(cat, cat.perfOverview(), PerfConstants{});
        QCOMPARE(stats.rows.size(), cat.perfOverview().size());
        std::printf("\nCalibration (default constants):\n%s", Calibration::formatTable(stats).c_str());
        const bool tight = stats.minRatio >= 0.67 && stats.maxRatio <= 1.5 && stats.rmsLogError <= 0.20;
        std::printf("tight goal 0.67x-1.5x / RMS 0.20 reached: %s\n", tight ? "yes" : "no");
        for (const auto &r : stats.rows) {
            QVERIFY2(r.ratio >= 0.5 && r.ratio <= 2.0,
                     (r.row.model + "/" + r.row.gpu + " ratio " + std::to_string(r.ratio)).c_str());
        }
        QVERIFY2(stats.rmsLogError <= 0.30, std::to_string(stats.rmsLogError).c_str());
    }

    void leaveOneGpuOut()
    {
        const auto &cat = Catalog::builtin();
        const auto res = Calibration::leaveOneGpuOut(cat, cat.perfOverview());
        QVERIFY(res.size() >= 4);
        std::printf("\nLeave-one-GPU-out (fit on the other GPUs, evaluate on the held-out one):\n");
        std::printf("%-6s %4s %8s %8s %6s %6s | eta_bw eta_fl eta_pf a_ms  b_us  maxseq pen\n", "gpu", "rows",
                    "rms_log", "max_log", "minR", "maxR");
        for (const auto &r : res) {
            const auto &c = r.fitted;
            std::printf("%-6s %4zu %8.3f %8.3f %6.2f %6.2f | %.3f  %.3f  %.3f  %.2f %5.1f %6d %.2f\n",
                        r.gpu.c_str(), r.held.rows.size(), r.held.rmsLogError, r.held.maxAbsLogError,
                        r.held.minRatio, r.held.maxRatio, c.etaBw, c.etaFlops, c.etaPrefill,
                        c.stepOverheadS * 1e3, c.perSeqOverheadS * 1e6, c.maxSeqsPerGpu, c.moePenalty);
            QVERIFY(!r.held.rows.empty());
            QVERIFY(std::isfinite(r.held.rmsLogError));
            // Held-out rows stay within a factor 2.5 (a loose bound: this checks generalisation, not the
            // fit).
            QVERIFY2(r.held.maxAbsLogError < std::log(2.5), r.gpu.c_str());
        }
        const auto all = Calibration::fit(cat, cat.perfOverview());
        const auto fitted = Calibration::evaluate(cat, cat.perfOverview(), all);
        std::printf("Full refit: RMS %.3f max %.3f (defaults: see table above)\n", fitted.rmsLogError,
                    fitted.maxAbsLogError);
        QVERIFY(fitted.rmsLogError <= 0.30);
    }
};

QTEST_GUILESS_MAIN(TestPerformanceModel)
#include "tst_performancemodel.moc"
