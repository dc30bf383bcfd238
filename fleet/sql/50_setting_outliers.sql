-- setting_outliers: the hosts that differ: for each field with several values, every host holding a value other
-- than the most common one (the value most hosts have; ties: the smallest as text), with that common value and
-- its host count ("node07: path_mtu 3 against 5 on 14 hosts").
WITH ranked AS (
    SELECT field, value, hosts,
           row_number() OVER (PARTITION BY field ORDER BY hosts DESC, value) AS rank_in_field,
           count(*) OVER (PARTITION BY field) AS values_in_field
    FROM setting_values),
common AS (
    SELECT field, value, hosts FROM ranked WHERE rank_in_field = 1 AND values_in_field > 1)
SELECT h.field, h.value, h.host, h.items, c.value AS common_value, c.hosts AS common_hosts
FROM host_settings h
JOIN common c ON c.field = h.field AND h.value <> c.value
