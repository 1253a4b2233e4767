#pragma once
// A small JSON Schema validator: enough of draft 2020-12 to check our own documents against
// resources/schemas/*.schema.json. Supported keywords: type (string or array), enum, const,
// required, properties, additionalProperties (bool or schema), items (schema), minItems, minimum,
// maximum, pattern is ignored, $ref to "#/$defs/…" or "#/definitions/…". Unknown keywords are
// ignored (as the spec requires for annotations). Pure function, any thread.

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

class JsonSchemaValidator
{
public:
    explicit JsonSchemaValidator(const nlohmann::json &schema);
    // Problems as "JSON-pointer: message"; empty = valid.
    std::vector<std::string> validate(const nlohmann::json &instance) const;

private:
    const nlohmann::json &m_schema;
};

} // namespace Throughline
