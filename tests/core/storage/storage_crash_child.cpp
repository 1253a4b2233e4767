// Helper executable for storage tests.
//   storage_crash_child --write DB [--checkpoint]   writes batches forever, printing "committed N" after each
//                                                   commit; the crash test SIGKILLs it at random moments.
//   storage_crash_child --make-fixture DB           writes the deterministic v1 fixture database
//                                                   (tests/data/storage/history_v1.sqlite was made with it).
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace Throughline;

static int writeForever(const std::string &path, bool checkpointEachBatch)
{
    StorageWriter writer;
    if (auto s = writer.open(path); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 3;
    }
    const std::string uuid = StorageTest::uuidFor(static_cast<std::uint32_t>(getpid()));
    writer.beginRun(StorageTest::makeRun(uuid, 1, 4));
    if (auto s = writer.flush(); !s)
        return 3;
    std::printf("run %s\n", uuid.c_str());
    std::fflush(stdout);
    std::mt19937 rng(static_cast<unsigned>(getpid()));
    std::uint64_t seq = 0;
    for (int batch = 0;; ++batch) {
        const int point = (batch / 20) % 4;
        writer.addRequests(uuid, StorageTest::makeBatch(seq, 500, 0, point, 128, true, rng));
        seq += 500;
        if (batch % 20 == 19)
            writer.finishPoint(
                uuid,
                FinishedPoint{0, point, {{"metrics", {{"output_tps_per_gpu", 100.0 + point}}}}, "", 0, 1});
        if (checkpointEachBatch)
            writer.checkpoint();
        if (auto s = writer.flush(); !s) {
            std::fprintf(stderr, "%s\n", s.error().message.c_str());
            return 3;
        }
        std::printf("committed %llu\n", static_cast<unsigned long long>(seq));
        std::fflush(stdout);
    }
}

static int makeFixture(const std::string &path)
{
    ::unlink(path.c_str());
    {
        StorageWriter writer;
        if (auto s = writer.open(path); !s) {
            std::fprintf(stderr, "%s\n", s.error().message.c_str());
            return 3;
        }
        RunStart run = StorageTest::makeRun("5eed0001-aaaa-4bbb-8ccc-000000000001", 2, 2);
        run.storeText = true;
        run.targets = {{{"name", "exemplar"}, {"rows", nlohmann::json::array()}}};
        writer.beginRun(run);
        std::mt19937 rng(42);
        for (int s = 0; s < 2; ++s) {
            for (int p = 0; p < 2; ++p) {
                auto batch = StorageTest::makeBatch(static_cast<std::uint64_t>((s * 2 + p) * 100), 100, s, p,
                                                    16, true, rng);
                batch[1].text = "hello fixture";
                writer.addRequests(run.uuid, std::move(batch));
                nlohmann::json agg = {
                    {"load", {{"mode", "concurrency"}, {"concurrency", 4 << p}}},
                    {"validity",
                     {{"valid", p == 1},
                      {"flags", p == 1 ? nlohmann::json::array() : nlohmann::json::array({"low_sample"})}}},
                    {"metrics",
                     {{"output_tps_per_gpu", 100.0 * (s + 1) + p},
                      {"ttft_ms", {{"p90", 55.5 + p}}},
                      {"tpot_ms", {{"p90", 20.25 + s}}}}}};
                writer.finishPoint(run.uuid, FinishedPoint{s, p, agg, "", 0, 100'000'000});
            }
            writer.setScenarioVerdict(run.uuid, s, {{"status", s == 0 ? "pass" : "fail"}});
        }
        writer.finishRun(run.uuid, RunStatus::Completed);
        if (auto s = writer.close(); !s)
            return 3;
    }
    SqliteDb db;
    if (!db.open(path) || !db.exec("PRAGMA journal_mode=DELETE; VACUUM;"))
        return 3;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && std::strcmp(argv[1], "--write") == 0)
        return writeForever(argv[2], argc >= 4 && std::strcmp(argv[3], "--checkpoint") == 0);
    if (argc >= 3 && std::strcmp(argv[1], "--make-fixture") == 0)
        return makeFixture(argv[2]);
    std::fprintf(stderr, "usage: storage_crash_child --write DB [--checkpoint] | --make-fixture DB\n");
    return 2;
}
