package io.rdmatrace.analyzer.rule;

import java.util.List;
import java.util.Optional;

/** The rules that parsed, and the files that did not (each with its reason). */
public record RuleSet(List<Rule> rules, List<RuleProblem> problems) {
    public RuleSet {
        rules = List.copyOf(rules);
        problems = List.copyOf(problems);
    }

    public Optional<Rule> find(String id) {
        return rules.stream().filter(r -> r.id().equals(id)).findFirst();
    }
}
