-- setting_values: the job's per-host summary grouped by value: for each field of host_settings, each value
-- with the number of hosts that have it and of their items (QPs, devices, ports) that do.
SELECT field, value, count(*) AS hosts, CAST(sum(items) AS BIGINT) AS items
FROM host_settings
GROUP BY field, value
