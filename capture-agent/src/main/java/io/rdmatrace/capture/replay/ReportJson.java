package io.rdmatrace.capture.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A host's replay report as JSON: how a replaying child process hands it to the parent (and to --json users). */
public final class ReportJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ReportJson() {
    }

    public static String write(Object report) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a replay report as JSON: " + e.getMessage(), e);
        }
    }

    static HostReplayReport read(String json) throws JsonProcessingException {
        return MAPPER.readValue(json, HostReplayReport.class);
    }
}
