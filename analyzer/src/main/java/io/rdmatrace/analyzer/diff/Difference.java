package io.rdmatrace.analyzer.diff;

import java.util.List;
import java.util.Objects;

/**
 * One difference between two captures, with every site where it shows: the same field of the
 * same kind of observation went from {@code a} to {@code b} for the same host role. A caps
 * rounding quirk, say, is one difference seen at the create and at every query.
 *
 * @param category what kind of difference (decides whether it is behavioural)
 * @param role     the host role
 * @param what     e.g. {@code ibv_query_qp}, {@code completion recv}, {@code device}
 * @param field    the compared field ({@code ret}, {@code out.max_send_wr}, {@code wc_status} …),
 *                 or {@code presence} for something only one capture has
 * @param a        the value in capture A ({@code absent} when A lacks it)
 * @param b        the value in capture B
 * @param where    the sites, in trace order
 */
public record Difference(DiffCategory category, String role, String what, String field, String a, String b,
                         List<Where> where) {
    public Difference {
        Objects.requireNonNull(category, "category");
        where = List.copyOf(where);
    }

    public boolean behavioural() {
        return category.behavioural();
    }

    /** The field as people read it: {@code out.max_send_wr} → {@code out max_send_wr}. */
    public String fieldLabel() {
        return field.replace('.', ' ');
    }

    /**
     * One site of a difference.
     *
     * @param seqA   the event's seq in A (-1 when A has none or it is a SESSION fact)
     * @param seqB   the event's seq in B
     * @param detail context such as {@code after ibv_modify_qp #2 (→ RTR)}
     */
    public record Where(Site site, long seqA, long seqB, String detail) {
        public String describe() {
            return site.describe() + (detail.isEmpty() ? "" : " " + detail);
        }
    }
}
