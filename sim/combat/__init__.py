"""The attack actions (R-SHOOT-1): situation.py (Situation: who is where, as the attack
rules need it), plan.py (AttackPlan, plan_shot, plan_close_combat; Shoot, Close combat,
and the attack that ends a charge), refusal.py (AttackRefused: why an attack may not be
made, written when read), rolls.py (AttackRoll: one attack's dice as a typed
record, read from its events).
"""
