package dev.vtbench.sut.scenarios;

import java.util.Map;
import java.util.Optional;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a scenario call gets: the query parameters and the optional JSON body. The helpers throw
 * {@link BadScenarioParameterException} naming the parameter.
 *
 * @param params query parameters (the first value of each)
 * @param body   the parsed JSON body; null when the request had none
 */
public record ScenarioRequest(Map<String, String> params, JsonNode body) {

    public ScenarioRequest {
        params = params == null ? Map.of() : Map.copyOf(params);
    }

    /**
     * Parses a raw request body (null or blank = no body).
     *
     * @throws BadScenarioParameterException naming {@code body} when it is not JSON
     */
    public static ScenarioRequest of(Map<String, String> params, String rawBody, JsonMapper mapper) {
        JsonNode body = null;
        if (rawBody != null && !rawBody.isBlank()) {
            try {
                body = mapper.readTree(rawBody);
            } catch (JacksonException e) {
                throw new BadScenarioParameterException("body", "body is not valid JSON: " + e.getOriginalMessage());
            }
        }
        return new ScenarioRequest(params, body);
    }

    public Optional<String> param(String name) {
        return Optional.ofNullable(params.get(name));
    }

    /**
     * A required query parameter that is a whole number (digits only) in {@code min..max}.
     *
     * @throws BadScenarioParameterException naming {@code name} when it is absent, not a whole number, or out of range
     */
    public long wholeNumber(String name, long min, long max) {
        String rule = "must be a whole number in " + min + ".." + max;
        String v = params.get(name);
        if (v == null || v.isBlank()) {
            throw new BadScenarioParameterException(name, "query parameter '" + name + "' is required: it " + rule);
        }
        long n;
        try {
            n = v.trim().matches("\\d{1,18}") ? Long.parseLong(v.trim()) : Long.MIN_VALUE;
        } catch (NumberFormatException e) {
            n = Long.MIN_VALUE;
        }
        if (n < min || n > max) {
            throw new BadScenarioParameterException(name, "query parameter '" + name + "'=" + v + " is invalid: it " + rule);
        }
        return n;
    }

    /**
     * A string field of the JSON body object; empty when there is no body or no such field (or it is null).
     *
     * @throws BadScenarioParameterException when the body is not an object or the field is not a string
     */
    public Optional<String> bodyString(String field) {
        if (body == null || body.isNull()) {
            return Optional.empty();
        }
        if (!body.isObject()) {
            throw new BadScenarioParameterException("body", "body must be a JSON object, got " + body.getNodeType());
        }
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isString()) {
            throw new BadScenarioParameterException(field, "body field '" + field + "' must be a string, got " + v.getNodeType());
        }
        return Optional.of(v.stringValue());
    }
}
