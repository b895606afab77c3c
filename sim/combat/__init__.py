"""The attack actions (R-SHOOT-1): plan.py (Situation, AttackPlan, plan_shot,
plan_close_combat; Shoot, Close combat, and the attack that ends a charge),
rolls.py (AttackRoll: one attack's dice as a typed record, read from its events).
"""
