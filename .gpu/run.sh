set -u
D=.rnnfast_device; B=$D/branch
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,utilization.gpu --format=csv,noheader; nproc; uptime
t0=$(date +%s)
timeout 60 python3 $D/gpu_rnn.py $B layout 2>&1 | grep -v "^ " | tee $OUT/layout.txt | tail -30
timeout 60 python3 $D/gpu_rnn.py $B profile > $OUT/profile_branch.txt 2>&1; grep -v "^-\|^ *aten\|^ *cuda\|^ *void\|^ *Memcpy\|^ *Activity\|^ *autograd\|^ *Cudnn\|^ *Mkl" $OUT/profile_branch.txt | head -30
echo "t=$(( $(date +%s) - t0 ))"
QUICK=1 timeout 70 python3 $D/gpu_rnn.py $B bench 2>&1 | grep -v Warning | tail -4
QUICK=1 timeout 70 python3 $D/gpu_rnn.py . bench 2>&1 | grep -v Warning | tail -4
echo "t=$(( $(date +%s) - t0 ))"
(cd $B && timeout 150 python3 -m pytest tests/test_fused_rnn.py tests/test_speed_cuda.py tests/test_tensor_array_blocks.py -q -p no:cacheprovider --tb=short 2>&1 | tail -40 | tee $OUT/pytest.txt)
echo "t=$(( $(date +%s) - t0 ))"
timeout 80 python3 $D/gpu_rnn.py $B tolerance 2>&1 | tail -3
echo "t=$(( $(date +%s) - t0 ))"
timeout 50 python3 $D/gpu_rnn.py . profile > $OUT/profile_main.txt 2>&1; grep "per step\|step ms\|warnings" $OUT/profile_main.txt
echo "t=$(( $(date +%s) - t0 ))"
