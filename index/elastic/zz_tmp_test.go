package elastic
import ("context";"testing";"time")
func TestTmpUnreach(t *testing.T){ s:=time.Now(); _,err:=New(context.Background(),Config{URL:"http://127.0.0.1:1",Dimension:8}); t.Log(err, time.Since(s)) }
