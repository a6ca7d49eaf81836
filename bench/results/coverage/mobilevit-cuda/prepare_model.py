# Here: `prepare_model.py NAME TARGET FOLDER` prepares bench/model_sweep.py's model NAME for TARGET
# (ldsopt.torch.prepare) into FOLDER, to be replayed with `python -m ldsopt.run.replay FOLDER/ldsopt`.
import sys, torch
sys.path.insert(0, 'bench')
import model_sweep as ms
import ldsopt.torch as lt
name, target, folder = sys.argv[1:4]
torch.manual_seed(0)
model, args = ms.MODELS[name]()
lt.prepare(model.eval(), *args, target=target, folder=folder, progress=lambda *a: None)
