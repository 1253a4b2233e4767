#pragma once
// Process exit codes of throughline-cli (ARCHITECTURE.md "Exit codes"); shared so core code that
// summarises a run can name the code the CLI should return.

namespace Throughline {

enum ExitCode : int {
    ExitOk = 0,           // no scenario failed
    ExitFailed = 1,       // at least one scenario `fail` (or no_target/invalid with --strict)
    ExitBadInput = 2,     // bad input or usage
    ExitRuntime = 3,      // endpoint unreachable, storage error, error-rate abort
    ExitInvalid = 4,      // completed with an `invalid` scenario and no fail
    ExitInterrupted = 130 // SIGINT
};

} // namespace Throughline
