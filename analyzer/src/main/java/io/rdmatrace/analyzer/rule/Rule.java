package io.rdmatrace.analyzer.rule;

import java.util.Objects;

import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;

/**
 * A rule as data: the header of a {@code rules/<id>.sql} file plus its SELECT.
 *
 * @param id          the file name without {@code .sql}; lowercase words joined by '-'
 * @param severity    how bad a row of this rule is
 * @param role        cause or consequence (header {@code role:}; a rule without one is a cause)
 * @param title       one line, what the rule detects
 * @param explanation why it matters (may span several lines)
 * @param fix         what to change
 * @param sql         the body: one DuckDB SELECT over the documented views
 * @param when        header {@code when:}, a SELECT that must return a row for the rule to run at all
 *                    (it can only skip a rule that would have found nothing); empty: the rule always runs
 * @param origin      where it came from ("builtin" or the user file's path), for messages
 */
public record Rule(String id, Severity severity, Role role, String title, String explanation, String fix, String sql, String when, String origin) {
    public Rule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(explanation, "explanation");
        Objects.requireNonNull(fix, "fix");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(when, "when");
        Objects.requireNonNull(origin, "origin");
    }
}
