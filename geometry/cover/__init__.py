"""The line of cover (R-COV-1): which cover objects the centre-to-centre line passes
through or enters, and which touch the attacker (whether that counts is
sim/shooting/cover_count.py's). table.py is the API the shot glue calls (a table per
board); lines.py answers one call's lines with a table of their own; objects.py holds
the cover object; filters.py and kernel.py are the compiled batch tests.
"""
