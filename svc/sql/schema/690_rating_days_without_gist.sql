-- rating_days_in_force (GiST over the discipline and the days a standing holds) serves no
-- statement since the rating tables read their days through rating_days_by_day and
-- rating_days_best (610_rating_tables.sql): no query names daterange. It cost 38 s of the full
-- scale's import (5.2 M rows, built again after each load) and an entry in every day the live
-- feed rates.
DROP INDEX IF EXISTS rating_days_in_force;
