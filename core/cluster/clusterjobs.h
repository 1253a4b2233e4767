#pragma once
// The scheduler files for one campaign split over N client machines, written from the shipped templates in
// packaging/cluster/ (compiled in as ":/cluster/…", so the app, the CLI and the packaged templates cannot
// drift apart): a Slurm job array plus a submit script that also queues the merge as a dependent job, or the
// Kubernetes Indexed Job and merge Job plus a submit script. Used by `throughline-cli cluster` and the app's
// Run ▸ Run on a Cluster… dialog. Pure text generation: no I/O besides reading the templates.
#include "core/util/result.h"

#include <string>
#include <vector>

namespace Throughline {

enum class ClusterScheduler { Slurm, Kubernetes };

struct ClusterJobOptions {
    ClusterScheduler scheduler = ClusterScheduler::Slurm;
    int shards = 4; // N, 2…4096
    // Common start, ISO 8601 UTC ("2026-12-02T08:00:00Z"); "" = chosen by the submit script when it runs:
    // leadMinutes ahead of that moment (every shard must get the same value).
    std::string startAt;
    int leadMinutes = 5;
    double pointSlotS = 0;    // seconds per load point (> 0)
    std::string campaignPath; // the campaign file: on the nodes' shared file system (Slurm), or on the
                              // machine that runs the submit script, for the ConfigMap (Kubernetes)
    std::string endpoint;     // the server under test; "" = the campaign's endpoints
    // Slurm
    std::string results;       // results folder every node sees (shard-<i>/, merged.tlrun)
    std::string binDir;        // folder holding throughline-cli on the nodes; "" = on PATH
    std::string sbatchOptions; // extra options for every sbatch call (e.g. "--partition=gpu --account=x")
    // Kubernetes
    std::string image;   // container image with throughline-cli (packaging/Dockerfile)
    std::string runName; // result folder on the "throughline-results" claim; a DNS label
};

struct ClusterFile {
    std::string name; // file name, no folder
    std::string text;
    bool executable = false;
};

class ClusterJobs
{
public:
    // Checks the options (the message names the field) and renders the files.
    static Result<std::vector<ClusterFile>> generate(const ClusterJobOptions &options);
    // What the user types to submit the files written into `folder` (one line).
    static std::string submitCommand(const ClusterJobOptions &options, const std::string &folder);
};

} // namespace Throughline
