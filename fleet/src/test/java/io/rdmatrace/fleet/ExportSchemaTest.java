package io.rdmatrace.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The manifest and the query files without an engine: what both runners rely on. Under a second. */
class ExportSchemaTest {
    static final String MANIFEST = "{\"layout\": \"rdmatrace-parquet/1\", \"trace_format\": \"1.4\", \"trace_format_versions\": [\"1.0\", \"1.4\"],"
            + " \"tables\": [{\"name\": \"qp_settings\", \"rows\": 2, \"columns\": [{\"name\": \"host\", \"type\": \"VARCHAR\"},"
            + " {\"name\": \"qp_num\", \"type\": \"INTEGER\"}, {\"name\": \"states_reached\", \"type\": \"VARCHAR[]\"}]}]}";

    @Test
    void parse_readsTablesColumnsAndVersions_andMapsTypesToSpark() {
        ExportSchema s = ExportSchema.parse(MANIFEST);
        assertThat(s.traceFormatVersions()).containsExactly("1.0", "1.4");
        ExportSchema.Table t = s.tables().get(0);
        assertThat(t.name()).isEqualTo("qp_settings");
        assertThat(t.rows()).isEqualTo(2);
        assertThat(t.columns().stream().map(ExportSchema.Column::sparkType)).containsExactly("STRING", "INT", "ARRAY<STRING>");
        assertThatThrownBy(() -> new ExportSchema.Column("x", "HUGEINT").sparkType()).hasMessageContaining("HUGEINT");
    }

    @Test
    void parse_refusesAnotherLayout() {
        assertThatThrownBy(() -> ExportSchema.parse(MANIFEST.replace("rdmatrace-parquet/1", "rdmatrace-parquet/2")))
                .hasMessageContaining("layout 'rdmatrace-parquet/2' is not rdmatrace-parquet/1");
        assertThatThrownBy(() -> ExportSchema.parse("not json")).hasMessageContaining("is not JSON");
    }

    @Test
    void bundled_filesInOrder_eachAView_andWhatTheyRead() {
        List<FleetQueries.Query> q = FleetQueries.bundled();
        assertThat(q.stream().map(FleetQueries.Query::view)).containsExactly("qp_pairs", "connection_checks",
                "host_settings", "setting_values", "setting_outliers");
        assertThat(q.get(0).reads("qp_settings")).isTrue();
        assertThat(q.get(0).reads("qp_state_timeline")).isFalse();
        assertThat(q.get(0).createTableSql()).startsWith("CREATE OR REPLACE TEMPORARY TABLE qp_pairs AS\n");
    }
}
