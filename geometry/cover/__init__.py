"""The line of cover (R-COV-1): which cover objects the centre-to-centre line passes
through or enters, and which touch the attacker. lines.py is the API; filters.py and
kernel.py are its compiled batch tests.
"""
