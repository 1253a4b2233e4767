#pragma once
// OpenAI-style HTTP error bodies and status texts of the simulated endpoint (vLLM's error shape:
// {"error": {"message", "type", "param", "code"}}). Pure functions.

#include <string>
#include <string_view>

namespace Throughline::SimDetail {

std::string_view reasonPhrase(int status);
std::string_view errorType(int status);
std::string errorBody(int status, const std::string &message, std::string_view type,
                      const char *param = nullptr);

} // namespace Throughline::SimDetail
