package io.rdmatrace.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The two styles of the one JSON writer, byte for byte. */
class JsonWriterTest {

    @Test
    void document_indentsAndWritesNanAsNull() {
        String json = new JsonWriter().beginObject().member("name", "a\"b").member("n", -3).name("list").beginArray()
                .value(1.5).value(Double.NaN).unsignedValue(-1L).endArray().name("empty").beginObject().endObject()
                .member("ok", true).member("none", (Number) null).endObject().toJson();
        assertThat(json).isEqualTo("{\n  \"name\": \"a\\\"b\",\n  \"n\": -3,\n  \"list\": [\n    1.5,\n    null,\n"
                + "    18446744073709551615\n  ],\n  \"empty\": {},\n  \"ok\": true,\n  \"none\": null\n}\n");
    }

    @Test
    void script_isCompactScriptSafeWithThreeDecimals() {
        StringBuilder out = new StringBuilder();
        JsonWriter.script(out).beginObject().member("html", "</script>&").member("t", 2.0).name("xs").beginArray()
                .value(1L).value((Number) 7).endArray().endObject();
        assertThat(out).hasToString("{\"html\":\"\\u003c/script\\u003e\\u0026\",\"t\":2.000,\"xs\":[1,7]}");
        assertThatThrownBy(() -> JsonWriter.script(new StringBuilder()).value(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
