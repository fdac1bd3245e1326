import os
import warnings

os.environ["HF_HUB_OFFLINE"] = "1"  # the model is built from a config: no download
import torch

with warnings.catch_warnings():  # it imports tqdm.auto, which warns under Jupyter
    warnings.filterwarnings("ignore", "IProgress not found")
    import transformers

# a tiny BART, random weights (init_std=1: outputs that visibly move), eval mode, no
# dropout; sources of 4 and 2 tokens, targets of 3 and 2, right-padded with id 1
torch.manual_seed(0)
config = transformers.BartConfig(
    vocab_size=32, d_model=16, encoder_layers=1, decoder_layers=1,
    encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
    decoder_ffn_dim=32, max_position_embeddings=16, dropout=0.0, init_std=1.0,
    pad_token_id=1, attn_implementation="eager")
model = transformers.BartModel(config).eval()
src_keep = torch.arange(4) < torch.tensor([[4], [2]])  # attention_mask: 1 = keep
tgt_keep = torch.arange(3) < torch.tensor([[3], [2]])  # decoder_attention_mask
ids = torch.randint(3, 32, (2, 4)).masked_fill(~src_keep, 1)
dec_ids = torch.randint(3, 32, (2, 3)).masked_fill(~tgt_keep, 1)
other = torch.where(src_keep, ids, torch.randint(3, 32, (2, 4)))  # new padded ids
runs = {"kept": (ids, src_keep), "new pads": (other, src_keep), "no mask": (ids, None),
        "new pads, no mask": (other, None), "flipped": (ids, ~src_keep)}
with torch.no_grad():  # the decoder's last hidden state, (2, 3, 16)
    h = {name: model(input_ids=i, attention_mask=None if m is None else m.long(),
                     decoder_input_ids=dec_ids, decoder_attention_mask=tgt_keep.long()
                     ).last_hidden_state for name, (i, m) in runs.items()}
    alone = model(input_ids=ids[1:, :2], decoder_input_ids=dec_ids[1:, :2])
gap = (h["kept"][1, :2] - alone.last_hidden_state[0]).abs().max().item()
moved = (h["new pads"] - h["kept"])[tgt_keep].abs().max().item()
dropped = (h["new pads, no mask"] - h["no mask"])[tgt_keep].abs().max().item()
flipped = (h["flipped"][1, :2] - alone.last_hidden_state[0]).abs().max().item()
print(f"둘째 쌍을 따로 돌린 것과의 차이 < 1e-5: {gap < 1e-5}")
print(f"[PAD] id를 바꿨을 때 진짜 타깃 위치의 움직임 < 1e-6: {moved < 1e-6}")
print(f"attention_mask를 빼면 움직임 > 0.01: {dropped > 0.01}")
print(f"1 = [PAD]로 뒤집으면 차이 > 0.01: {flipped > 0.01}")
