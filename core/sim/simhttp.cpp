#include "core/sim/simhttp.h"

#include <nlohmann/json.hpp>

namespace Throughline::SimDetail {

std::string_view reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 413:
        return "Payload Too Large";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return "Error";
    }
}

std::string errorBody(int status, const std::string &message, std::string_view type, const char *param)
{
    nlohmann::json j = {{"error",
                         {{"message", message},
                          {"type", type},
                          {"param", param ? nlohmann::json(param) : nlohmann::json(nullptr)},
                          {"code", status}}}};
    return j.dump();
}

std::string_view errorType(int status)
{
    switch (status) {
    case 400:
        return "BadRequestError";
    case 404:
        return "NotFoundError";
    case 429:
        return "RateLimitError";
    case 503:
        return "ServiceUnavailableError";
    default:
        return "InternalServerError";
    }
}

} // namespace Throughline::SimDetail
