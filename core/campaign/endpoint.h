#pragma once
// Where requests go. The API key is a *reference* (an environment variable or keyring entry), never the key.

#include "core/campaign/backendpreset.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace Throughline {

struct SimulatorOptions {
    double timeScale = 1.0; // > 1 runs faster than real time, < 1 slower
    double jitter = 0.0;    // relative jitter of step times; 0 for tests
    std::uint64_t seed = 1;
    std::string faults;        // fault spec, as `throughline-sim --faults`
    bool childProcess = false; // force a separate process (chosen automatically above ~2,000 streams)

    bool operator==(const SimulatorOptions &) const = default;
};

struct Endpoint {
    enum class Kind { Http, Simulated };
    enum class Routing { RoundRobin, LeastInFlight };

    std::string name = "default";
    Kind kind = Kind::Http;
    std::string baseUrl;                  // e.g. http://127.0.0.1:8000 (no /v1)
    std::vector<std::string> replicaUrls; // optional: several replicas behind one scenario
    Routing routing = Routing::RoundRobin;
    ApiFlavour flavour = ApiFlavour::Chat;
    std::string servedModel;   // "model" field of requests; empty = the scenario's model name
    std::string apiKeyEnv;     // name of an environment variable holding the key
    std::string apiKeyKeyring; // keyring entry name (secret-tool lookup)
    std::string caFile;
    bool insecure = false;
    double connectTimeoutS = 10;
    std::map<std::string, std::string> extraHeaders;
    nlohmann::json extraBody = nlohmann::json::object(); // merged into each request body
    SimulatorOptions sim;
    // Server telemetry scraped during the run (core/telemetry): the backend preset's telemetry paths on the
    // base URL and every replica, plus these extra URLs (e.g. a DCGM exporter, scraped with every name map).
    std::vector<std::string> telemetryUrls;
    double telemetryIntervalS = 1.0; // scrape interval in seconds of model time; 0 disables scraping
    // Which scenarios use this endpoint: key=glob over model, backend, gpu, gpus, phase. Empty = all.
    std::map<std::string, std::vector<std::string>> match;

    bool operator==(const Endpoint &) const = default;
};

} // namespace Throughline
