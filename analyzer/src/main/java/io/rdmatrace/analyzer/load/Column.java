package io.rdmatrace.analyzer.load;

import java.util.Objects;

/** One column of a base table: its SQL name and type. */
record Column(String name, SqlType type) {
    Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
